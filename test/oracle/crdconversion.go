package main

import (
	"encoding/json"
	"fmt"

	sigsjson "sigs.k8s.io/json"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsv1beta1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1beta1"
)

// opCRDToV1 answers with the v1 object the API server holds for a CRD written as apiextensions.k8s.io/v1
// or v1beta1: decode + that version's defaulting, conversion to the internal type, conversion to v1
// (what `kubectl get crd -o yaml` would show, status included). Used to check the migration's
// v1beta1 -> v1 conversion: the engine's v1 document and the original v1beta1 one must give the same
// answer.
func opCRDToV1(c *testCase) (answer, error) {
	var head struct {
		APIVersion string `json:"apiVersion"`
	}
	if err := json.Unmarshal(c.CRD, &head); err != nil {
		return answer{}, fmt.Errorf("decoding CRD: %v", err)
	}
	internal := &apiextensions.CustomResourceDefinition{}
	switch head.APIVersion {
	case "apiextensions.k8s.io/v1beta1":
		crd := &apiextensionsv1beta1.CustomResourceDefinition{}
		if err := sigsjson.UnmarshalCaseSensitivePreserveInts(c.CRD, crd); err != nil {
			return answer{}, fmt.Errorf("decoding CRD: %v", err)
		}
		apiextensionsv1beta1.SetObjectDefaults_CustomResourceDefinition(crd)
		if err := apiextensionsv1beta1.Convert_v1beta1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(crd, internal, nil); err != nil {
			return answer{}, fmt.Errorf("converting CRD: %v", err)
		}
	case "apiextensions.k8s.io/v1":
		crd, err := decodeCRD(c.CRD)
		if err != nil {
			return answer{}, err
		}
		if err := apiextensionsv1.Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(crd, internal, nil); err != nil {
			return answer{}, fmt.Errorf("converting CRD: %v", err)
		}
	default:
		return answer{}, fmt.Errorf("not a CRD apiVersion: %q", head.APIVersion)
	}
	out := &apiextensionsv1.CustomResourceDefinition{}
	if err := apiextensionsv1.Convert_apiextensions_CustomResourceDefinition_To_v1_CustomResourceDefinition(internal, out, nil); err != nil {
		return answer{}, fmt.Errorf("converting CRD to v1: %v", err)
	}
	raw, err := json.Marshal(out)
	if err != nil {
		return answer{}, err
	}
	v := rawValue(raw)
	return answer{ID: c.ID, Object: &v}, nil
}
