module crdyaml.local/applyconfig

go 1.23.0

require sigs.k8s.io/controller-tools v0.19.0
