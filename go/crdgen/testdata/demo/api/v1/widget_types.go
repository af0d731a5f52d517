package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// WidgetSpec is what a widget should be.
// +kubebuilder:validation:XValidation:rule="self.replica > 0",message="replicas must be positive"
type WidgetSpec struct {
	// Replicas is how many.
	// +kubebuilder:validation:Minimun=1
	// +kubebuilder:validation:Maximum=10
	// +kubebuilder:default=20
	Replicas int32 `json:"replicas"`

	// Name must look like a name.
	// +kubebuilder:validation:Pattern=`^[a-z]+(?=x)$`
	// +optional
	Name string `json:"name,omitempty"`

	// Ports are keyed by name.
	// +listType=map
	// +listMapKey=name
	// +optional
	Ports []Port `json:"ports,omitempty"`

	// Labels are extra labels.
	// +optional
	Labels map[string]Label `json:"labels,omitempty"`
}

// Port is one port.
type Port struct {
	// +optional
	Name string `json:"name,omitempty"`
	// +kubebuilder:validation:XValidation:rule="self <= 65535",message="too big"
	Number int32 `json:"number"`
}

// Label is a label value.
// +kubebuilder:validation:MaxLength=63
type Label string

// WidgetStatus is what a widget is.
type WidgetStatus struct {
	// +optional
	Ready bool `json:"ready,omitempty"`
}

// Widget is the Schema for the widgets API.
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +kubebuilder:resource:shortName=wd,scope=Namespaced
// +kubebuilder:printcolumn:name="Replicas",type=integer,JSONPath=`.spec.replicas`
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   WidgetSpec   `json:"spec,omitempty"`
	Status WidgetStatus `json:"status,omitempty"`
}

// WidgetList is a list of widgets.
// +kubebuilder:object:root=true
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Widget `json:"items"`
}
