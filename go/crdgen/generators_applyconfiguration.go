//go:build !noapplyconfiguration

package main

// controller-tools v0.18 and later have the applyconfiguration generator; older versions build with
// -tags noapplyconfiguration (versions/<V>/tags).

import "sigs.k8s.io/controller-tools/pkg/applyconfiguration"

func init() { generators["applyconfiguration"] = applyconfiguration.Generator{} }
