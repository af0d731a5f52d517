package main

// The fixture module (../../test/fixtures/go-kubebuilder, the one the language server and CLI tests of
// test/go read too) through the whole program: generation as controller-gen does it, the source map,
// marker problems, overlays and incremental reloads, and the JSON-lines protocol.

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func fixtureDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.Abs(filepath.Join("..", "..", "test", "fixtures", "go-kubebuilder"))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// fixtureTypes is the path and text of one of the fixture's files of types (api/v1/<kind>_types.go).
func fixtureTypes(t *testing.T, kind string) (string, string) {
	t.Helper()
	f := filepath.Join(fixtureDir(t), "api", "v1", kind+"_types.go")
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	return f, string(b)
}

// lineOf is the 1-based line of the first line containing s.
func lineOf(t *testing.T, text, s string) int {
	t.Helper()
	for i, l := range strings.Split(text, "\n") {
		if strings.Contains(l, s) {
			return i + 1
		}
	}
	t.Fatalf("%q not in the fixture's source", s)
	return 0
}

func markerAt(c *generatedCRD, text string) *markerOut {
	for _, m := range c.Markers {
		if m.Text == text {
			return m
		}
	}
	return nil
}

// crdNamed is the generated CRD of that name (the test stops without it).
func crdNamed(t *testing.T, res *generateResult, name string) *generatedCRD {
	t.Helper()
	for _, c := range res.CRDs {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no CRD %s in %+v (errors %+v)", name, res.CRDs, res.Errors)
	return nil
}

const root = "/spec/versions/0/schema/openAPIV3Schema"

func TestFixtureGeneratesWithSourceMap(t *testing.T) {
	file, src := fixtureTypes(t, "widget")
	ws := newWorkspace(fixtureDir(t))
	res := ws.generate(generateParams{ModuleDir: ws.dir})
	if len(res.Errors) != 0 {
		t.Fatalf("errors: %+v", res.Errors)
	}
	if res.Options["source"] != "Makefile:4" || res.Options["maxDescLen"] == nil {
		t.Errorf("options not read from the Makefile's crd line: %v", res.Options)
	}
	if len(res.CRDs) != 3 {
		t.Fatalf("crds: %+v", res.CRDs)
	}
	crdNamed(t, res, "gadgets.example.com")
	crdNamed(t, res, "sprockets.example.com")
	c := crdNamed(t, res, "widgets.example.com")
	if c.FileName != "example.com_widgets.yaml" {
		t.Errorf("file name: %s", c.FileName)
	}
	// the version annotation names controller-tools' version, as controller-gen's binary does
	v := controllerToolsVersion()
	if !strings.HasPrefix(v, "v0.") || dig(c.CRD, "metadata", "annotations", "controller-gen.kubebuilder.io/version") != v ||
		!strings.Contains(c.YAML, "controller-gen.kubebuilder.io/version: "+v+"\n") || !strings.HasPrefix(c.YAML, "---\n") {
		t.Errorf("yaml is not controller-gen's file: %.200s", c.YAML)
	}
	// maxDescLen=0 from the Makefile: no descriptions
	if dig(c.CRD, "spec", "versions") == nil || strings.Contains(c.YAML, "description:") {
		t.Errorf("maxDescLen=0 not applied")
	}
	// the misspelled Minimum never reached the schema
	if lookupPointer(c.CRD, root+"/properties/spec/properties/size/minimum") != nil {
		t.Errorf("minimum present although its marker is misspelled")
	}

	n, ok := c.Nodes[root+"/properties/spec/properties/replicas"]
	if !ok || n.Field == nil || n.Field.File != file || n.Field.Line != lineOf(t, src, "Replicas int32") || n.GoType != "int32" {
		t.Errorf("replicas node: %+v", n)
	}
	n = c.Nodes[root+"/properties/spec/properties/ports/items"]
	if n.Type == nil || n.Type.Line != lineOf(t, src, "type Port struct") || n.GoType != "example.com/widgets/api/v1.Port" {
		t.Errorf("ports/items node: %+v", n)
	}
	n = c.Nodes[root+"/properties/spec"]
	if n.Field == nil || n.Type == nil || n.Field.Line != lineOf(t, src, "Spec   WidgetSpec") || n.Type.Line != lineOf(t, src, "type WidgetSpec struct") {
		t.Errorf("spec node: %+v", n)
	}

	// each marker: its kind's file, the CRD it shapes, the node it makes
	rule := `+kubebuilder:validation:XValidation:rule="self.replica <= self.maxReplicas",message="too many replicas"`
	want := []struct{ kind, text, ptr string }{
		{"widget", "+kubebuilder:validation:Maximum=10", root + "/properties/spec/properties/replicas/maximum"},
		{"sprocket", "+kubebuilder:default=80", root + "/properties/spec/properties/teeth/default"},
		{"widget", "+kubebuilder:validation:Pattern=`^(?!www)[a-z]+$`", root + "/properties/spec/properties/host/pattern"},
		{"widget", "+listMapKey=name", root + "/properties/spec/properties/ports/x-kubernetes-list-map-keys/0"},
		{"sprocket", "+kubebuilder:validation:MaxLength=63", root + "/properties/spec/properties/labels/additionalProperties/maxLength"},
		{"gadget", rule, root + "/properties/spec/x-kubernetes-validations/0"},
		{"widget", `+kubebuilder:printcolumn:name="Replicas",type=integer,JSONPath=` + "`.spec.replicas`", "/spec/versions/0/additionalPrinterColumns/0"},
		{"widget", "+kubebuilder:resource:shortName=wd,scope=Namespaced", "/spec/scope"},
	}
	for _, w := range want {
		wf, wsrc := fixtureTypes(t, w.kind)
		wc := crdNamed(t, res, w.kind+"s.example.com")
		m := markerAt(wc, w.text)
		if m == nil {
			t.Errorf("marker %s not in the source map", w.text)
			continue
		}
		found := false
		for _, e := range m.Effects {
			found = found || e.Pointer == w.ptr
			if lookupPointer(wc.CRD, e.Pointer) == nil {
				t.Errorf("%s: effect %s points at nothing", w.text, e.Pointer)
			}
		}
		if !found {
			t.Errorf("%s: effects %+v, want %s", w.text, m.Effects, w.ptr)
		}
		if m.Span.File != wf || m.Span.Line != lineOf(t, wsrc, w.text) || wsrc[m.Span.Offset:m.Span.EndOffset] != w.text {
			t.Errorf("%s: span %+v", w.text, m.Span)
		}
	}
	// argument spans cover the values as written (the CEL rule with its quotes)
	_, gadget := fixtureTypes(t, "gadget")
	m := markerAt(crdNamed(t, res, "gadgets.example.com"), rule)
	if m == nil || len(m.Args) != 2 || m.Args[0].Name != "rule" || gadget[m.Args[0].Span.Offset:m.Args[0].Span.EndOffset] != `"self.replica <= self.maxReplicas"` {
		t.Errorf("rule argument span: %+v", m)
	}

	if len(res.MarkerProblems) != 1 {
		t.Fatalf("marker problems: %+v", res.MarkerProblems)
	}
	p := res.MarkerProblems[0]
	if p.Reason != "unknown-marker" || p.Suggestion != "kubebuilder:validation:Minimum" || p.Fix == nil ||
		src[p.Fix.Span.Offset:p.Fix.Span.EndOffset] != "kubebuilder:validation:Minimun" || p.Span.Line != lineOf(t, src, "Minimun") {
		t.Errorf("Minimun: %+v %+v", p, p.Fix)
	}
}

func TestFixtureSourceMapCoversEveryNode(t *testing.T) {
	ws := newWorkspace(fixtureDir(t))
	res := ws.generate(generateParams{ModuleDir: ws.dir})
	checkSourceMap(t, ws, res)
}

func TestOverlaysReloadOnlyWhatChanged(t *testing.T) {
	file, src := fixtureTypes(t, "widget")
	ws := newWorkspace(fixtureDir(t))
	first := ws.generate(generateParams{ModuleDir: ws.dir})
	if first.Stats["load"] != "full" {
		t.Fatalf("first load: %v", first.Stats)
	}
	again := ws.generate(generateParams{ModuleDir: ws.dir})
	if again.Stats["load"] != "none" || again.Stats["cached"] != true || len(again.CRDs) != 3 {
		t.Errorf("nothing changed, yet: %v", again.Stats)
	}

	// an unsaved edit: the overlay is what is generated, and only its package is checked again
	edited := strings.Replace(src, "Maximum=10", "Maximum=7", 1)
	res := ws.generate(generateParams{ModuleDir: ws.dir, Overlays: map[string]string{file: edited}})
	if res.Stats["load"] != "incremental" || res.Stats["packagesReparsed"] != 1 {
		t.Errorf("edit: %v", res.Stats)
	}
	if got := lookupPointer(crdNamed(t, res, "widgets.example.com").CRD, root+"/properties/spec/properties/replicas/maximum"); got != float64(7) {
		t.Errorf("maximum after the edit: %v", got)
	}

	// an unknown argument: controller-gen stops, and says where
	bad := strings.Replace(src, `,message="too big"`, `,mesage="too big"`, 1)
	res = ws.generate(generateParams{ModuleDir: ws.dir, Overlays: map[string]string{file: bad}})
	var arg *markerProblem
	for _, p := range res.MarkerProblems {
		if p.Reason == "unknown-argument" {
			arg = p
		}
	}
	if arg == nil || arg.Severity != "error" || arg.Suggestion != "message" || arg.Fix == nil || bad[arg.Fix.Span.Offset:arg.Fix.Span.EndOffset] != "mesage" {
		t.Errorf("unknown argument: %+v", arg)
	}

	// a syntax error is said plainly, at its place
	broken := strings.Replace(src, "type Port struct {", "type Port struct {{", 1)
	res = ws.generate(generateParams{ModuleDir: ws.dir, Overlays: map[string]string{file: broken}})
	syntax := false
	for _, e := range res.Errors {
		syntax = syntax || (e.Kind == "syntax" && e.Pos != nil && e.Pos.File == file && e.Pos.Line == lineOf(t, broken, "type Port struct {{"))
	}
	if !syntax {
		t.Errorf("syntax error not reported: %+v", res.Errors)
	}

	// a type that does not exist: the generator's own error, at the field (type errors themselves are
	// controller-gen's to ignore)
	undefined := strings.Replace(src, "Ready bool", "Ready Missing", 1)
	res = ws.generate(generateParams{ModuleDir: ws.dir, Overlays: map[string]string{file: undefined}})
	if len(res.Errors) != 1 || res.Errors[0].Kind != "generate" || !strings.Contains(res.Errors[0].Message, "Missing") ||
		res.Errors[0].Pos == nil || res.Errors[0].Pos.Line != lineOf(t, undefined, "Ready Missing") {
		t.Errorf("undefined type: %+v", res.Errors)
	}

	// a new import means go list must run again
	imported := strings.Replace(src, "import (\n", "import (\n\t_ \"k8s.io/apimachinery/pkg/util/intstr\"\n", 1)
	res = ws.generate(generateParams{ModuleDir: ws.dir, Overlays: map[string]string{file: imported}})
	if res.Stats["load"] != "full" || len(res.CRDs) != 3 {
		t.Errorf("import change: %v", res.Stats)
	}
	// a new API version written in the editor, not yet on disk: go list runs again and its CRD version appears
	v2 := filepath.Join(fixtureDir(t), "api", "v2", "widget_types.go")
	v2src := "// +groupName=example.com\n// +versionName=v2\npackage v2\n\nimport metav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n\n" +
		"// +kubebuilder:object:root=true\ntype Widget struct {\n\tmetav1.TypeMeta `json:\",inline\"`\n\tmetav1.ObjectMeta `json:\"metadata,omitempty\"`\n\tSize int32 `json:\"size\"`\n}\n"
	res = ws.generate(generateParams{ModuleDir: ws.dir, Overlays: map[string]string{v2: v2src}})
	widgets := crdNamed(t, res, "widgets.example.com")
	versions, _ := dig(widgets.CRD, "spec", "versions").([]any)
	if res.Stats["load"] != "full" || len(res.CRDs) != 3 || len(versions) != 2 {
		t.Errorf("new package in an overlay: %v, %d versions, errors %+v", res.Stats, len(versions), res.Errors)
	}
	if n := widgets.Nodes["/spec/versions/1/schema/openAPIV3Schema/properties/size"]; n.Field == nil || n.Field.File != v2 {
		t.Errorf("the new version's field is not mapped to the overlay: %+v", n)
	}
	res = ws.generate(generateParams{ModuleDir: ws.dir, Overlays: map[string]string{v2: v2src}})
	if res.Stats["load"] != "none" {
		t.Errorf("the new package loaded, the same overlay again: %v", res.Stats)
	}

	// back to the disk: the overlay is gone, the file is as saved
	res = ws.generate(generateParams{ModuleDir: ws.dir})
	if got := lookupPointer(crdNamed(t, res, "widgets.example.com").CRD, root+"/properties/spec/properties/replicas/maximum"); got != float64(10) {
		t.Errorf("maximum after dropping the overlay: %v", got)
	}
}

func TestProtocolLines(t *testing.T) {
	in := strings.Join([]string{
		`{"id":1,"method":"inspect","params":{"moduleDir":` + quote(fixtureDir(t)) + `}}`,
		`not json`,
		`{"id":"b","method":"generate","params":{"moduleDir":` + quote(fixtureDir(t)) + `,"sourceMap":false,"options":{"maxDescLen":5}}}`,
		`{"id":3,"method":"nope"}`,
		`{"id":4,"method":"markers"}`,
		`{"id":5,"method":"shutdown"}`,
		`{"id":6,"method":"inspect","params":{"moduleDir":"/"}}`,
	}, "\n") + "\n"
	var out bytes.Buffer
	serve(strings.NewReader(in), &out)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 6 {
		t.Fatalf("want 6 answers (none after shutdown), got %d:\n%s", len(lines), out.String())
	}
	var answers []map[string]any
	for _, l := range lines {
		var a map[string]any
		if err := json.Unmarshal([]byte(l), &a); err != nil {
			t.Fatalf("answer is not JSON: %s", l)
		}
		answers = append(answers, a)
	}
	if answers[0]["id"] != float64(1) || dig(answers[0], "result", "options", "source") != "Makefile:4" {
		t.Errorf("inspect: %v", answers[0])
	}
	if answers[1]["error"] == nil || answers[1]["id"] != nil {
		t.Errorf("bad JSON: %v", answers[1])
	}
	crds, _ := dig(answers[2], "result", "crds").([]any)
	if answers[2]["id"] != "b" || len(crds) != 3 || dig(crds[0], "nodes") != nil || dig(answers[2], "result", "options", "maxDescLen") != float64(5) ||
		dig(answers[2], "result", "options", "source") != "Makefile:4 and request" {
		t.Errorf("generate: %.400v", answers[2])
	}
	if dig(answers[3], "error", "message") == nil {
		t.Errorf("unknown method: %v", answers[3])
	}
	list, _ := dig(answers[4], "result", "markers").([]any)
	names := map[string]bool{}
	for _, m := range list {
		names[dig(m, "name").(string)] = true
	}
	if !names["kubebuilder:validation:Minimum"] || !names["kubebuilder:rbac"] || !names["listMapKey"] {
		t.Errorf("marker registry listing lacks names: %d entries", len(list))
	}
}

func quote(s string) string { b, _ := json.Marshal(s); return string(b) }

func TestControllerGenLines(t *testing.T) {
	dir := t.TempDir()
	mk := "CRD_OPTIONS ?= \"crd:allowDangerousTypes=true,maxDescLen=40\"\n" +
		"CONTROLLER_GEN = $(LOCALBIN)/controller-gen\n" +
		"manifests:\n\t$(CONTROLLER_GEN) $(CRD_OPTIONS) \\\n\t\trbac:roleName=x paths=\"./apis/...;./other/...\" output:crd:dir=config\n"
	if err := os.WriteFile(filepath.Join(dir, "Makefile"), []byte(mk), 0o644); err != nil {
		t.Fatal(err)
	}
	o := resolveOptions(dir, nil, nil).report()
	if o["source"] != "Makefile:4" || o["maxDescLen"] == nil || o["allowDangerousTypes"] == nil {
		t.Errorf("options: %v", o)
	}
	if p, _ := o["packages"].([]string); len(p) != 2 || p[0] != "./apis/..." || p[1] != "./other/..." {
		t.Errorf("packages: %v", o["packages"])
	}
	// an option controller-gen rejects is said, and the rest is kept
	mk = "manifests:\n\tcontroller-gen crd:trivialVersions=true,maxDescLen=0 paths=./...\n"
	os.WriteFile(filepath.Join(dir, "Makefile"), []byte(mk), 0o644)
	r := resolveOptions(dir, nil, nil)
	if len(r.problems) != 1 || r.gen.MaxDescLen == nil || *r.gen.MaxDescLen != 0 {
		t.Errorf("partly valid options: %+v", r)
	}
	// //go:generate in the API directory, paths relative to the file
	os.Remove(filepath.Join(dir, "Makefile"))
	os.MkdirAll(filepath.Join(dir, "api", "v1"), 0o755)
	os.WriteFile(filepath.Join(dir, "api", "v1", "doc.go"), []byte("package v1\n\n//go:generate controller-gen crd:generateEmbeddedObjectMeta=true paths=./... output:dir=x\n"), 0o644)
	o = resolveOptions(dir, nil, nil).report()
	if o["source"] != "api/v1/doc.go:3" || o["generateEmbeddedObjectMeta"] == nil {
		t.Errorf("go:generate options: %v", o)
	}
	if p, _ := o["packages"].([]string); len(p) != 1 || p[0] != "./api/v1/..." {
		t.Errorf("go:generate packages: %v", o["packages"])
	}
}

func TestMarkerFamilyAndDistance(t *testing.T) {
	k := known()
	for anon, want := range map[string]bool{
		"kubebuilder:validation:Minimun": true, "kubebuiler:validation:Minimum": true, "requried": true,
		"listTyp": true, "Optional": true, "optional": false, "groupGoName": false, "genclient": false,
		"k8s:deepcopy-gen": false, "kubebuilder:scaffold:imports": false, "gateway:experimental": false,
	} {
		if got := inFamily(anon, k); got != want {
			t.Errorf("inFamily(%q) = %v, want %v", anon, got, want)
		}
	}
	if d := levenshtein("requried", "required"); d != 1 {
		t.Errorf("a transposition costs %d", d)
	}
}
