package main

import (
	"encoding/json"
	"fmt"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	sigsjson "sigs.k8s.io/json"

	"k8s.io/apiextensions-apiserver/pkg/apihelpers"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresource"
	"k8s.io/apiextensions-apiserver/pkg/registry/customresourcedefinition"
)

// decodeCRD decodes a v1 CRD as the API server's JSON serializer does (case-sensitive, ints kept) and
// applies the v1 defaulting functions (the scheme's defaulter runs on decode).
func decodeCRD(raw json.RawMessage) (*apiextensionsv1.CustomResourceDefinition, error) {
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := sigsjson.UnmarshalCaseSensitivePreserveInts(raw, crd); err != nil {
		return nil, fmt.Errorf("decoding CRD: %v", err)
	}
	apiextensionsv1.SetObjectDefaults_CustomResourceDefinition(crd)
	return crd, nil
}

// opCRD is a v1 create: decode + default, convert to the internal type (which hoists identical
// per-version schemas, subresources and columns), system fields, PrepareForCreate, then
// rest.ValidateCreate (the strategy's Validate = ValidateCustomResourceDefinition, then the common
// ObjectMeta checks when it found nothing).
func opCRD(c *testCase) (answer, error) {
	crd, err := decodeCRD(c.CRD)
	if err != nil {
		return answer{}, err
	}
	internal := &apiextensions.CustomResourceDefinition{}
	if err := apiextensionsv1.Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(crd, internal, nil); err != nil {
		return answer{}, fmt.Errorf("converting CRD: %v", err)
	}
	ctx := genericapirequest.NewContext()
	strategy := customresourcedefinition.NewStrategy(nil)
	if len(c.OldCRD) > 0 {
		return opCRDUpdate(c, internal)
	}
	rest.FillObjectMetaSystemFields(internal)
	strategy.PrepareForCreate(ctx, internal)
	return errorsAnswer(rest.ValidateCreate(ctx, internal, strategy)), nil
}

// opCRDUpdate is a v1 update of the stored `oldCrd` (FORMAT.md extension, see README): the stored
// object is decoded, defaulted and converted like the new one and keeps the status the case gives it
// (status.storedVersions, the Established condition); a stored CRD without stored versions stands for
// one created from that object (PrepareForCreate: its storage version). Then rest.BeforeUpdate's steps
// (resourceVersion, generation, uid and creationTimestamp from the stored object), the strategy's
// PrepareForUpdate (status from the stored object plus the new storage version) and rest.ValidateUpdate.
func opCRDUpdate(c *testCase, internal *apiextensions.CustomResourceDefinition) (answer, error) {
	oldV1, err := decodeCRD(c.OldCRD)
	if err != nil {
		return answer{}, err
	}
	old := &apiextensions.CustomResourceDefinition{}
	if err := apiextensionsv1.Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(oldV1, old, nil); err != nil {
		return answer{}, fmt.Errorf("converting old CRD: %v", err)
	}
	ctx := genericapirequest.NewContext()
	strategy := customresourcedefinition.NewStrategy(nil)
	rest.FillObjectMetaSystemFields(old)
	if len(old.Status.StoredVersions) == 0 {
		for _, v := range old.Spec.Versions {
			if v.Storage {
				old.Status.StoredVersions = []string{v.Name}
				break
			}
		}
	}
	if old.ResourceVersion == "" {
		old.ResourceVersion = "1"
	}
	if internal.ResourceVersion == "" {
		internal.ResourceVersion = old.ResourceVersion
	}
	if internal.Name == "" {
		internal.Name = old.Name
	}
	internal.Generation = old.Generation
	strategy.PrepareForUpdate(ctx, internal, old)
	if internal.UID == "" {
		internal.UID = old.UID
	}
	internal.CreationTimestamp = old.CreationTimestamp
	return errorsAnswer(rest.ValidateUpdate(ctx, internal, old, strategy)), nil
}

// opValidateCustomResource is a CR create (or, with oldObject, an update) on a server serving the
// CRD: the request body is decoded by the CR codec (prune at the root, prune non-nullable nulls,
// ObjectMeta coercion, then schema defaulting), the registry fills namespace and name, the strategy's
// PrepareForCreate drops status when the status subresource is on, and the strategy validates (type
// meta, ObjectMeta, OpenAPI schema, scale, embedded ObjectMeta, list types, CEL unless blocked).
func opValidateCustomResource(c *testCase) (answer, error) {
	crd, err := decodeCRD(c.CRD)
	if err != nil {
		return answer{}, err
	}
	version := c.Version
	if version == "" && len(crd.Spec.Versions) > 0 {
		version = crd.Spec.Versions[0].Name
	}
	kind := schema.GroupVersionKind{Group: crd.Spec.Group, Version: version, Kind: crd.Spec.Names.Kind}

	// customresource_handler.go getOrCreateServingInfoFor, for one version.
	val, err := apihelpers.GetSchemaForVersion(crd, version)
	if err != nil {
		return answer{}, err
	}
	var internalProps *apiextensions.JSONSchemaProps
	var s *structuralschema.Structural
	if val != nil {
		internalValidation := &apiextensions.CustomResourceValidation{}
		if err := apiextensionsv1.Convert_v1_CustomResourceValidation_To_apiextensions_CustomResourceValidation(val, internalValidation, nil); err != nil {
			return answer{}, err
		}
		internalProps = internalValidation.OpenAPIV3Schema
		if s, err = structuralschema.NewStructural(internalProps); err != nil {
			return answer{}, fmt.Errorf("NewStructural: %v", err)
		}
		s = s.DeepCopy()
		if err := defaulting.PruneDefaults(s); err != nil {
			return answer{}, fmt.Errorf("PruneDefaults: %v", err)
		}
	}
	validator, _, err := apiservervalidation.NewSchemaValidator(internalProps)
	if err != nil {
		return answer{}, err
	}
	subresources, err := apihelpers.GetSubresourcesForVersion(crd, version)
	if err != nil {
		return answer{}, err
	}
	var statusSpec *apiextensions.CustomResourceSubresourceStatus
	var statusValidator apiservervalidation.SchemaValidator
	if subresources != nil && subresources.Status != nil {
		statusSpec = &apiextensions.CustomResourceSubresourceStatus{}
		if internalProps != nil && internalProps.Properties != nil {
			if statusSchema, ok := internalProps.Properties["status"]; ok {
				if statusValidator, _, err = apiservervalidation.NewSchemaValidator(&statusSchema); err != nil {
					return answer{}, err
				}
			}
		}
	}
	var scaleSpec *apiextensions.CustomResourceSubresourceScale
	if subresources != nil && subresources.Scale != nil {
		scaleSpec = &apiextensions.CustomResourceSubresourceScale{}
		if err := apiextensionsv1.Convert_v1_CustomResourceSubresourceScale_To_apiextensions_CustomResourceSubresourceScale(subresources.Scale, scaleSpec, nil); err != nil {
			return answer{}, err
		}
	}
	var selectable []apiextensionsv1.SelectableField
	for _, v := range crd.Spec.Versions {
		if v.Name == version {
			selectable = v.SelectableFields
		}
	}
	namespaced := crd.Spec.Scope == apiextensionsv1.NamespaceScoped
	strategy := customresource.NewStrategy(nil, namespaced, kind, validator, statusValidator, s, statusSpec, scaleSpec, selectable)

	ctx := genericapirequest.NewContext()
	if namespaced {
		ctx = genericapirequest.WithNamespace(ctx, metav1.NamespaceDefault)
	}
	decode := func(raw json.RawMessage) (*unstructured.Unstructured, *answer, error) {
		v, err := decodeInstance(raw)
		if err != nil {
			return nil, nil, err
		}
		m, ok := v.(map[string]interface{})
		if !ok {
			return nil, nil, fmt.Errorf("object is not a JSON object")
		}
		u := &unstructured.Unstructured{Object: m}
		if err := coerce(u, kind, s); err != nil {
			// The server answers 400 Bad Request: no field errors at all.
			return nil, &answer{Rejected: err.Error()}, nil
		}
		if s != nil {
			defaulting.Default(u.Object, s)
		}
		// handlers/create.go and update.go: exact duplicate owner references are dropped.
		dedupOwnerReferences(u)
		// rest.BeforeCreate/BeforeUpdate: the request namespace fills an empty one; cluster-scoped clears it.
		if namespaced {
			if u.GetNamespace() == "" {
				u.SetNamespace(metav1.NamespaceDefault)
			}
		} else {
			u.SetNamespace("")
		}
		return u, nil, nil
	}
	u, rejected, err := decode(c.Object)
	if err != nil || rejected != nil {
		return derefAnswer(rejected), err
	}
	if len(c.OldObject) == 0 {
		// handlers/create.go and Store.Create: system fields, generated name, then rest.BeforeCreate.
		rest.FillObjectMetaSystemFields(u)
		if u.GetName() == "" && u.GetGenerateName() != "" {
			// names.SimpleNameGenerator: the base cut to 58 characters, then 5 random ones (fixed here,
			// as the engine's).
			base := u.GetGenerateName()
			if len(base) > 58 {
				base = base[:58]
			}
			u.SetName(base + "abcde")
		}
		strategy.PrepareForCreate(ctx, u)
		return errorsAnswer(rest.ValidateCreate(ctx, u, strategy)), nil
	}
	old, rejected, err := decode(c.OldObject)
	if err != nil || rejected != nil {
		return derefAnswer(rejected), err
	}
	// handlers/update.go checkName: the body's name must be the URL's, i.e. the stored object's.
	if u.GetName() != old.GetName() {
		return answer{Rejected: fmt.Sprintf("the name of the object (%s) does not match the name on the URL (%s)", u.GetName(), old.GetName())}, nil
	}
	// The stored object has a resourceVersion and an update request carries it (CRs do not allow
	// unconditional updates); the format has no resourceVersion, so both get the stored one.
	if old.GetResourceVersion() == "" {
		old.SetResourceVersion("1")
	}
	if u.GetResourceVersion() == "" {
		u.SetResourceVersion(old.GetResourceVersion())
	}
	// The stored object has the system fields; rest.BeforeUpdate keeps generation, uid and
	// creationTimestamp from it.
	rest.FillObjectMetaSystemFields(old)
	u.SetGeneration(old.GetGeneration())
	strategy.PrepareForUpdate(ctx, u, old)
	if u.GetUID() == "" {
		u.SetUID(old.GetUID())
	}
	u.SetCreationTimestamp(old.GetCreationTimestamp())
	// rest.BeforeUpdate: an update never removes or changes the deletion timestamp or grace period.
	if ts := old.GetDeletionTimestamp(); ts != nil && !ts.IsZero() {
		u.SetDeletionTimestamp(ts)
	}
	if gp := old.GetDeletionGracePeriodSeconds(); gp != nil && u.GetDeletionGracePeriodSeconds() == nil {
		u.SetDeletionGracePeriodSeconds(gp)
	}
	return errorsAnswer(rest.ValidateUpdate(ctx, u, old, strategy)), nil
}

// coerce is unstructuredSchemaCoercer.apply (customresource_handler.go, unexported) for a CRD with
// preserveUnknownFields=false, non-strict decoding and dropInvalidMetadata=false.
func coerce(u *unstructured.Unstructured, gvk schema.GroupVersionKind, s *structuralschema.Structural) error {
	kind, foundKind, err := unstructured.NestedString(u.Object, "kind")
	if err != nil {
		return err
	}
	apiVersion, foundAPIVersion, err := unstructured.NestedString(u.Object, "apiVersion")
	if err != nil {
		return err
	}
	objectMeta, foundObjectMeta, _, err := objectmeta.GetObjectMetaWithOptions(u.Object, objectmeta.ObjectMetaOptions{})
	if err != nil {
		return err
	}
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return err
	}
	if gv.Group == gvk.Group && kind == gvk.Kind && s != nil {
		pruning.Prune(u.Object, s, true)
		defaulting.PruneNonNullableNullsWithoutDefaults(u.Object, s)
		if err, _ := objectmeta.CoerceWithOptions(nil, u.Object, s, false, objectmeta.CoerceOptions{}); err != nil {
			return err
		}
	}
	if foundKind {
		u.SetKind(kind)
	}
	if foundAPIVersion {
		u.SetAPIVersion(apiVersion)
	}
	if foundObjectMeta {
		if err := objectmeta.SetObjectMeta(u.Object, objectMeta); err != nil {
			return err
		}
	}
	return nil
}

func derefAnswer(a *answer) answer {
	if a == nil {
		return answer{}
	}
	return *a
}

// dedupOwnerReferences is handlers.dedupOwnerReferencesAndAddWarning (unexported there, warning left
// out): an owner reference semantically equal to an earlier one with the same uid is dropped.
func dedupOwnerReferences(u *unstructured.Unstructured) {
	refs := u.GetOwnerReferences()
	var result []metav1.OwnerReference
	seen := map[types.UID]bool{}
	duplicates := false
	for _, ref := range refs {
		has := false
		if seen[ref.UID] {
			for _, r := range result {
				if apiequality.Semantic.DeepEqual(r, ref) {
					has = true
					break
				}
			}
		}
		if has {
			duplicates = true
			continue
		}
		seen[ref.UID] = true
		result = append(result, ref)
	}
	if duplicates {
		u.SetOwnerReferences(result)
	}
}
