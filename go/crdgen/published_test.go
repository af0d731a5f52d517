package main

// The Go tier's real-world check (published.sh runs it once per project, built against the controller-tools
// version that project pins): the CRDs generated from a released module equal the CRDs that release
// published, as YAML values; every difference is listed with its cause, and one without a known cause
// fails the test. The same run checks the source map against the generated CRDs and controller-tools'
// own marker collector.

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/markers"
	"sigs.k8s.io/yaml"
)

type publishedCase struct {
	Name      string   `json:"name"`
	ModuleDir string   `json:"moduleDir"`
	Published string   `json:"published"`
	Packages  []string `json:"packages"`
	// Profile names a project whose release runs its own generator around controller-tools' (gateway-api:
	// channels, description tags); its documented post-processing explains differences, nothing else does.
	Profile string `json:"profile"`
}

func TestPublishedCRDs(t *testing.T) {
	raw := os.Getenv("CRDGEN_CASE")
	if raw == "" {
		t.Skip("CRDGEN_CASE is not set (go/crdgen/published.sh sets it)")
	}
	var pc publishedCase
	if err := json.Unmarshal([]byte(raw), &pc); err != nil {
		t.Fatal(err)
	}
	ws := newWorkspace(pc.ModuleDir)
	res := ws.generate(generateParams{ModuleDir: pc.ModuleDir, Packages: pc.Packages})
	t.Logf("%s: controller-tools %s, options %v, stats %v", pc.Name, res.ControllerTools, res.Options, res.Stats)
	for _, e := range res.Errors {
		t.Errorf("Go error: %s %s %v", e.Kind, e.Message, e.Pos)
	}
	for _, p := range res.MarkerProblems {
		t.Logf("marker problem: %s:%d %s", p.Span.File, p.Span.Line, p.Message)
	}
	generated := map[string]*generatedCRD{}
	for _, c := range res.CRDs {
		generated[c.Name] = c
	}
	files, _ := filepath.Glob(filepath.Join(pc.Published, "*.yaml"))
	if len(files) == 0 {
		t.Fatalf("no published CRDs in %s", pc.Published)
	}
	equal, explained, unexplained := 0, 0, 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var pub map[string]any
		if err := yaml.Unmarshal(data, &pub); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		name, _ := dig(pub, "metadata", "name").(string)
		gen := generated[name]
		if gen == nil {
			t.Errorf("%s: published CRD %s was not generated", filepath.Base(f), name)
			unexplained++
			continue
		}
		diffs := diffValues(gen.CRD, pub, "")
		if len(diffs) == 0 {
			equal++
			t.Logf("%s: equal", name)
			continue
		}
		causes := map[string]int{}
		for _, d := range diffs {
			cause := explain(pc.Profile, gen.CRD, pub, d)
			if cause == "" {
				unexplained++
				t.Errorf("%s: unexplained difference at %s: %s", name, d.pointer, d.what)
				continue
			}
			explained++
			causes[cause]++
		}
		keys := make([]string, 0, len(causes))
		for k := range causes {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			t.Logf("%s: %d difference(s): %s", name, causes[k], k)
		}
	}
	for name := range generated {
		found := false
		for _, f := range files {
			data, _ := os.ReadFile(f)
			if strings.Contains(string(data), "name: "+name+"\n") {
				found = true
			}
		}
		if !found {
			t.Logf("%s: generated, not in the published set (%s)", name, explainMissingKind(pc.Profile))
		}
	}
	t.Logf("%s: %d published CRDs equal, %d differences explained, %d unexplained", pc.Name, equal, explained, unexplained)
	checkSourceMap(t, ws, res)
}

type valueDiff struct {
	pointer string
	what    string
	gen     any
	pub     any
}

// diffValues lists where two YAML values differ (a missing or extra key, or a different scalar/list).
func diffValues(gen, pub any, ptr string) []valueDiff {
	gm, gok := gen.(map[string]any)
	pm, pok := pub.(map[string]any)
	if gok && pok {
		keys := map[string]bool{}
		for k := range gm {
			keys[k] = true
		}
		for k := range pm {
			keys[k] = true
		}
		sorted := make([]string, 0, len(keys))
		for k := range keys {
			sorted = append(sorted, k)
		}
		sort.Strings(sorted)
		var out []valueDiff
		for _, k := range sorted {
			gv, inG := gm[k]
			pv, inP := pm[k]
			p := ptr + "/" + escapePointer(k)
			switch {
			case !inP:
				out = append(out, valueDiff{p, "generated only", gv, nil})
			case !inG:
				out = append(out, valueDiff{p, "published only", nil, pv})
			default:
				out = append(out, diffValues(gv, pv, p)...)
			}
		}
		return out
	}
	ga, gaok := gen.([]any)
	pa, paok := pub.([]any)
	if gaok && paok && len(ga) == len(pa) {
		var out []valueDiff
		for i := range ga {
			out = append(out, diffValues(ga[i], pa[i], ptr+"/"+strconv.Itoa(i))...)
		}
		return out
	}
	if reflect.DeepEqual(gen, pub) {
		return nil
	}
	return []valueDiff{{ptr, fmt.Sprintf("generated %s, published %s", short(gen), short(pub)), gen, pub}}
}

func short(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 120 {
		return string(b[:117]) + "..."
	}
	return string(b)
}

// explain names the cause of one difference, or "" when none is known.
func explain(profile string, gen, pub map[string]any, d valueDiff) string {
	if profile != "gateway" {
		return ""
	}
	// gateway-api's tools/generator: its own annotations instead of controller-gen's
	if strings.HasPrefix(d.pointer, "/metadata/annotations/") {
		return "gateway generator: its bundle-version/channel annotations replace controller-gen's version annotation"
	}
	// the standard channel serves no alpha version
	if strings.HasSuffix(d.pointer, "/served") {
		return "gateway generator: alpha versions not served in the standard channel"
	}
	parent, key := splitPointer(d.pointer)
	// a property whose description carries <gateway:experimental> is dropped from the standard channel
	if d.what == "generated only" {
		if desc, _ := dig(d.gen, "description").(string); strings.Contains(desc, "<gateway:experimental>") {
			return "gateway generator: <gateway:experimental> property dropped from the standard channel"
		}
		if _, under := lookupPointer(gen, parent).(map[string]any); under && key != "" {
			// a list the experimental property took part in (required, CEL rules naming it)
			if strings.Contains(parent, "/required") || strings.Contains(parent, "x-kubernetes-validations") {
				return "gateway generator: rule or required entry of a dropped experimental property"
			}
		}
	}
	// descriptions: the generator rewrites <gateway:...> tags out of them
	if strings.HasSuffix(d.pointer, "/description") {
		if g, _ := d.gen.(string); strings.Contains(g, "<gateway:") {
			return "gateway generator: <gateway:...> description tags rewritten"
		}
	}
	// node-level edits driven by the tags in the generated node's description
	for p := d.pointer; p != ""; p, _ = splitPointer(p) {
		if desc, _ := dig(lookupPointer(gen, p), "description").(string); strings.Contains(desc, "<gateway:") {
			switch {
			case strings.Contains(desc, "<gateway:standard:validation:") || strings.Contains(desc, "<gateway:experimental>") ||
				strings.Contains(desc, "<gateway:validateIPAddress>") || strings.Contains(desc, "<gateway:experimental:"):
				return "gateway generator: channel validation/experimental tags in the description"
			}
		}
	}
	if strings.Contains(d.pointer, "x-kubernetes-validations") || strings.HasSuffix(d.pointer, "/required") || strings.Contains(d.pointer, "/required/") {
		// lists whose length changed because an experimental property or its rule went away
		if sameWithoutExperimental(gen, d) {
			return "gateway generator: list shortened by a dropped experimental property"
		}
	}
	if gf, _ := dig(lookupPointer(gen, parentOf(d.pointer)), "format").(string); gf == "date-time" && key == "type" {
		return "gateway generator: date-time fields typed string"
	}
	return ""
}

func explainMissingKind(profile string) string {
	if profile == "gateway" {
		return "gateway generator: kinds outside its standardKinds list are experimental-channel only"
	}
	return "not among the release files in crd-releases"
}

// sameWithoutExperimental: a required list or rule list differs only by entries naming experimental properties.
func sameWithoutExperimental(gen map[string]any, d valueDiff) bool {
	ga, _ := d.gen.([]any)
	pa, _ := d.pub.([]any)
	if ga == nil || len(pa) >= len(ga) {
		return false
	}
	for _, p := range pa {
		found := false
		for _, g := range ga {
			if reflect.DeepEqual(g, p) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

func splitPointer(p string) (string, string) {
	i := strings.LastIndex(p, "/")
	if i < 0 {
		return "", p
	}
	return p[:i], p[i+1:]
}

func parentOf(p string) string { parent, _ := splitPointer(p); return parent }

func lookupPointer(v any, p string) any {
	if p == "" {
		return v
	}
	for _, seg := range strings.Split(strings.TrimPrefix(p, "/"), "/") {
		seg = strings.ReplaceAll(strings.ReplaceAll(seg, "~1", "/"), "~0", "~")
		switch t := v.(type) {
		case map[string]any:
			v = t[seg]
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(t) {
				return nil
			}
			v = t[i]
		default:
			return nil
		}
	}
	return v
}

// checkSourceMap: every schema node has its Go origin, every marker effect points at a value of the CRD,
// and the marker association agrees with controller-tools' own collector on every local package.
func checkSourceMap(t *testing.T, ws *workspace, res *generateResult) {
	nodes, mapped, effects := 0, 0, 0
	for _, c := range res.CRDs {
		versions, _ := dig(c.CRD, "spec", "versions").([]any)
		for i := range versions {
			root := "/spec/versions/" + strconv.Itoa(i) + "/schema/openAPIV3Schema"
			var visit func(p string, s map[string]any)
			visit = func(p string, s map[string]any) {
				nodes++
				if _, ok := c.Nodes[p]; ok {
					mapped++
				} else if nodes-mapped <= 5 {
					t.Logf("%s: no Go origin for %s", c.Name, p)
				}
				if props, ok := s["properties"].(map[string]any); ok {
					keys := make([]string, 0, len(props))
					for k := range props {
						keys = append(keys, k)
					}
					sort.Strings(keys)
					for _, k := range keys {
						if sub, ok := props[k].(map[string]any); ok {
							visit(p+"/properties/"+escapePointer(k), sub)
						}
					}
				}
				if items, ok := s["items"].(map[string]any); ok {
					visit(p+"/items", items)
				}
				if ap, ok := s["additionalProperties"].(map[string]any); ok {
					visit(p+"/additionalProperties", ap)
				}
			}
			if s, ok := lookupPointer(c.CRD, root).(map[string]any); ok {
				visit(root, s)
			}
		}
		for _, m := range c.Markers {
			for _, e := range m.Effects {
				effects++
				if lookupPointer(c.CRD, e.Pointer) == nil {
					t.Errorf("%s: marker %s at %s:%d: effect %s points at nothing", c.Name, m.Text, m.Span.File, m.Span.Line, e.Pointer)
				}
			}
		}
	}
	t.Logf("source map: %d of %d schema nodes mapped to Go, %d marker effects", mapped, nodes, effects)
	if nodes == 0 || mapped*1000 < nodes*995 {
		t.Errorf("source map covers %d of %d schema nodes (want >= 99.5%%)", mapped, nodes)
	}

	// the association, against controller-tools' collector (same registry)
	reg := &markers.Registry{}
	if err := (crd.Generator{}).RegisterMarkers(reg); err != nil {
		t.Fatal(err)
	}
	col := &markers.Collector{Registry: reg}
	a := newAssociations(ws, reg)
	compared := 0
	for _, pkg := range ws.local {
		theirs, err := col.MarkersInPackage(pkg)
		if err != nil {
			continue // a marker controller-gen cannot read: reported as a marker problem
		}
		ours := a.of(pkg)
		for nodeKey, vals := range theirs {
			want := map[string]int{}
			for name, vs := range vals {
				want[name] = len(vs)
			}
			got := map[string]int{}
			for _, c := range ours[nodeKey] {
				if def := reg.Lookup(c.text(), targetOf(nodeKey)); def != nil {
					got[def.Name]++
				}
			}
			if !reflect.DeepEqual(want, got) && !(len(want) == 0 && len(got) == 0) {
				t.Errorf("association differs from controller-tools' at %s: collector %v, ours %v", describeNode(ws, nodeKey), want, got)
			}
			compared++
		}
	}
	t.Logf("association: %d nodes agree with controller-tools' collector", compared)
}

func describeNode(ws *workspace, n ast.Node) string {
	p := ws.fset.Position(n.Pos())
	return fmt.Sprintf("%s:%d", p.Filename, p.Line)
}
