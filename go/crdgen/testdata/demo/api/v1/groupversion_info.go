// Package v1 is a small API for crdgen's tests.
// +kubebuilder:object:generate=true
// +groupName=demo.example.com
package v1

import (
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupVersion is group version used to register these objects.
var GroupVersion = schema.GroupVersion{Group: "demo.example.com", Version: "v1"}
