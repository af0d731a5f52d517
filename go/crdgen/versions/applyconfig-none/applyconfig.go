// Package applyconfig stands in for ../applyconfig in builds for controller-tools v0.17, which has no
// applyconfiguration generator.
package applyconfig

import "sigs.k8s.io/controller-tools/pkg/genall"

// Generators are none: v0.17 has only the generators crdgen always registers.
func Generators() map[string]genall.Generator { return nil }
