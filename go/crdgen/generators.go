package main

// The registry of every marker controller-gen knows, generator by generator, as controller-gen's own
// main registers them: a marker none of them knows is one controller-gen skips without a word.

import (
	"sort"
	"sync"

	"crdyaml.local/applyconfig"
	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/deepcopy"
	"sigs.k8s.io/controller-tools/pkg/genall"
	"sigs.k8s.io/controller-tools/pkg/markers"
	"sigs.k8s.io/controller-tools/pkg/rbac"
	"sigs.k8s.io/controller-tools/pkg/schemapatcher"
	"sigs.k8s.io/controller-tools/pkg/webhook"
)

// generators are controller-gen's, by the name its command line uses.
var generators = map[string]genall.Generator{
	"crd":         crd.Generator{},
	"rbac":        rbac.Generator{},
	"object":      deepcopy.Generator{},
	"webhook":     webhook.Generator{},
	"schemapatch": schemapatcher.Generator{},
}

type knownMarkers struct {
	all       *markers.Registry
	crd       *markers.Registry
	generator map[*markers.Definition]string
}

var (
	knownOnce sync.Once
	knownVal  *knownMarkers
)

// known is built on first use, after every generator's init has run.
func known() *knownMarkers {
	knownOnce.Do(func() { knownVal = buildKnown() })
	return knownVal
}

func buildKnown() *knownMarkers {
	for n, g := range applyconfig.Generators() {
		generators[n] = g
	}
	k := &knownMarkers{all: &markers.Registry{}, crd: &markers.Registry{}, generator: map[*markers.Definition]string{}}
	if err := (crd.Generator{}).RegisterMarkers(k.crd); err != nil {
		panic(err)
	}
	names := make([]string, 0, len(generators))
	for n := range generators {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		reg := &markers.Registry{}
		if err := generators[n].RegisterMarkers(reg); err != nil {
			panic(err)
		}
		for _, def := range reg.AllDefinitions() {
			if k.all.Lookup("+"+def.Name, def.Target) != nil {
				continue // registered by an earlier generator too (the crd and schemapatch share theirs)
			}
			if err := k.all.Register(def); err == nil {
				k.generator[def] = n
				if h := reg.HelpFor(def); h != nil {
					k.all.AddHelp(def, h)
				}
			}
		}
	}
	return k
}

type argListing struct {
	Name     string `json:"name"`
	Type     string `json:"type"`
	Optional bool   `json:"optional"`
}

type markerListing struct {
	Name      string       `json:"name"`
	Target    string       `json:"target"`
	Generator string       `json:"generator"`
	Args      []argListing `json:"args"`
	Help      string       `json:"help,omitempty"`
}

func registryListing() []markerListing {
	k := known()
	defs := k.all.AllDefinitions()
	out := make([]markerListing, 0, len(defs))
	for _, def := range defs {
		l := markerListing{Name: def.Name, Target: targetName(def.Target), Generator: k.generator[def], Args: []argListing{}}
		for name, arg := range def.Fields {
			l.Args = append(l.Args, argListing{Name: name, Type: arg.TypeString(), Optional: arg.Optional})
		}
		sort.Slice(l.Args, func(i, j int) bool { return l.Args[i].Name < l.Args[j].Name })
		if h := k.all.HelpFor(def); h != nil {
			l.Help = h.Summary
		}
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return out[i].Target < out[j].Target
	})
	return out
}
