// Package applyconfig gives crdgen controller-gen's applyconfiguration generator (controller-tools v0.18
// and later). It is a module of its own so that a build for an older controller-tools replaces it with
// ../applyconfig-none (versions/<V>/go.mod) instead of needing build flags.
package applyconfig

import (
	"sigs.k8s.io/controller-tools/pkg/applyconfiguration"
	"sigs.k8s.io/controller-tools/pkg/genall"
)

// Generators are the generators this controller-tools version has beyond those of v0.17.
func Generators() map[string]genall.Generator {
	return map[string]genall.Generator{"applyconfiguration": applyconfiguration.Generator{}}
}
