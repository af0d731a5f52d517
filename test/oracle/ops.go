package main

import (
	"context"
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/util/validation/field"
	sigsjson "sigs.k8s.io/json"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/common"
)

// runOp dispatches a case to the Kubernetes code path that owns its op.
func runOp(c *testCase) (answer, error) {
	switch c.Op {
	case "structural":
		return opStructural(c)
	case "prune":
		return opPrune(c)
	case "default":
		return opDefault(c)
	case "validate":
		if len(c.CRD) > 0 {
			return opValidateCustomResource(c)
		}
		return opValidateWithSchema(c)
	case "crd":
		return opCRD(c)
	case "crd-v1":
		return opCRDToV1(c)
	case "cel-compile":
		return opCELCompile(c)
	case "cel-eval":
		return opCELEval(c)
	case "cel-cost":
		return opCELCost(c)
	}
	return answer{}, fmt.Errorf("unknown op %q", c.Op)
}

// internalSchema decodes a v1 openAPIV3Schema (as JSON) and converts it to the internal type, as the
// API server does before building structural schemas and validators.
func internalSchema(raw json.RawMessage) (*apiextensions.JSONSchemaProps, error) {
	v1 := &apiextensionsv1.JSONSchemaProps{}
	if err := sigsjson.UnmarshalCaseSensitivePreserveInts(raw, v1); err != nil {
		return nil, fmt.Errorf("decoding schema: %v", err)
	}
	internal := &apiextensions.JSONSchemaProps{}
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(v1, internal, nil); err != nil {
		return nil, fmt.Errorf("converting schema: %v", err)
	}
	return internal, nil
}

// structural builds the structural schema of a case's `schema`. Unlike the CR handler it does not
// PruneDefaults: FORMAT.md's `default` op is the defaulting step alone (unknown fields, also inside
// defaults, are not pruned), and unit-test cases use non-object roots, which PruneDefaults rejects.
func structural(raw json.RawMessage) (*apiextensions.JSONSchemaProps, *structuralschema.Structural, error) {
	internal, err := internalSchema(raw)
	if err != nil {
		return nil, nil, err
	}
	s, err := structuralschema.NewStructural(internal)
	if err != nil {
		return nil, nil, fmt.Errorf("NewStructural: %v", err)
	}
	return internal, s, nil
}

func errorsAnswer(errs field.ErrorList) answer {
	out := make([]errorJSON, 0, len(errs))
	for _, e := range errs {
		f := e.Field
		if f == "<nil>" {
			f = ""
		}
		out = append(out, errorJSON{Type: string(e.Type), Field: f, Detail: e.Error()})
	}
	return answer{Errors: &out}
}

func objectAnswer(v interface{}) (answer, error) {
	b, err := encodeValue(v)
	if err != nil {
		return answer{}, err
	}
	return answer{Object: &b}, nil
}

// opStructural: ValidateStructural(nil, NewStructural(schema)). A NewStructural failure has no field
// path in Kubernetes; it is reported as one InternalError at "".
func opStructural(c *testCase) (answer, error) {
	internal, err := internalSchema(c.Schema)
	if err != nil {
		return answer{}, err
	}
	s, err := structuralschema.NewStructural(internal)
	if err != nil {
		return errorsAnswer(field.ErrorList{field.InternalError(nil, err)}), nil
	}
	return errorsAnswer(structuralschema.ValidateStructural(nil, s)), nil
}

// opPrune: pruning.Prune(obj, schema, isResourceRoot) alone.
func opPrune(c *testCase) (answer, error) {
	_, s, err := structural(c.Schema)
	if err != nil {
		return answer{}, err
	}
	obj, err := decodeInstance(c.Object)
	if err != nil {
		return answer{}, err
	}
	pruning.Prune(obj, s, c.resourceRoot())
	return objectAnswer(obj)
}

// opDefault: PruneNonNullableNullsWithoutDefaults then Default, the order of the CR codec
// (schemaCoercingDecoder, then unstructuredDefaulter), on the schema's defaults as written.
func opDefault(c *testCase) (answer, error) {
	_, s, err := structural(c.Schema)
	if err != nil {
		return answer{}, err
	}
	obj, err := decodeInstance(c.Object)
	if err != nil {
		return answer{}, err
	}
	defaulting.PruneNonNullableNullsWithoutDefaults(obj, s)
	defaulting.Default(obj, s)
	return objectAnswer(obj)
}

// opValidateWithSchema is customResourceStrategy.Validate/ValidateUpdate without the parts that need a
// CRD (type meta, root ObjectMeta, scale): OpenAPI schema validation, embedded ObjectMeta, list types
// (ratcheted on update), then CEL unless a blocking error came first.
func opValidateWithSchema(c *testCase) (answer, error) {
	internal, s, err := structural(c.Schema)
	if err != nil {
		return answer{}, err
	}
	obj, err := decodeInstance(c.Object)
	if err != nil {
		return answer{}, err
	}
	var old interface{}
	isUpdate := len(c.OldObject) > 0
	if isUpdate {
		if old, err = decodeInstance(c.OldObject); err != nil {
			return answer{}, err
		}
	}
	validator, _, err := apiservervalidation.NewSchemaValidator(internal)
	if err != nil {
		return answer{}, err
	}
	ctx := context.Background()
	var errs field.ErrorList
	var celOpts []cel.Option
	if isUpdate {
		correlated := common.NewCorrelatedObject(obj, old, &model.Structural{Structural: s})
		errs = append(errs, apiservervalidation.ValidateCustomResourceUpdate(nil, obj, old, validator, apiservervalidation.WithRatcheting(correlated))...)
		celOpts = append(celOpts, cel.WithRatcheting(correlated))
	} else {
		errs = append(errs, apiservervalidation.ValidateCustomResource(nil, obj, validator)...)
	}
	errs = append(errs, objectmeta.Validate(ctx, nil, obj, s, false)...)
	if m, ok := obj.(map[string]interface{}); ok {
		if isUpdate {
			oldMap, _ := old.(map[string]interface{})
			if oldErrs := listtype.ValidateListSetsAndMaps(nil, s, oldMap); len(oldErrs) == 0 {
				errs = append(errs, listtype.ValidateListSetsAndMaps(nil, s, m)...)
			}
		} else {
			errs = append(errs, listtype.ValidateListSetsAndMaps(nil, s, m)...)
		}
	}
	if celValidator := cel.NewValidator(s, c.resourceRoot(), celconfig.PerCallLimit); celValidator != nil {
		if blocked, e := hasBlockingErr(errs); blocked {
			errs = append(errs, e)
		} else {
			celErrs, _ := celValidator.Validate(ctx, nil, s, obj, old, celconfig.RuntimeCELCostBudget, celOpts...)
			errs = append(errs, celErrs...)
		}
	}
	return errorsAnswer(errs), nil
}

// hasBlockingErr is customresource.hasBlockingErr (unexported there): these error types skip CEL.
func hasBlockingErr(errs field.ErrorList) (bool, *field.Error) {
	for _, err := range errs {
		if err.Type == field.ErrorTypeNotSupported || err.Type == field.ErrorTypeRequired || err.Type == field.ErrorTypeTooLong || err.Type == field.ErrorTypeTooMany || err.Type == field.ErrorTypeTypeInvalid {
			return true, field.Invalid(nil, nil, "some validation rules were not checked because the object was invalid; correct the existing errors to complete validation")
		}
	}
	return false, nil
}
