package main

// One `generate` request: sync the loaded packages, run crd.Generator.Generate exactly as controller-gen
// does (its own Generate, its own marker registry and type checker) into memory, then map the output back
// to the Go source.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"time"

	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/genall"
	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/markers"
	"sigs.k8s.io/controller-tools/pkg/version"
	"sigs.k8s.io/yaml"
)

type generatedCRD struct {
	Name     string          `json:"name"`
	Group    string          `json:"group"`
	Kind     string          `json:"kind"`
	FileName string          `json:"fileName"`
	YAML     string          `json:"yaml,omitempty"`
	CRD      map[string]any  `json:"crd"`
	Nodes    map[string]node `json:"nodes,omitempty"`
	Markers  []*markerOut    `json:"markers,omitempty"`
}

type goError struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Pos     *pos   `json:"pos,omitempty"`
}

type generateResult struct {
	ControllerTools string           `json:"controllerTools"`
	Options         map[string]any   `json:"options"`
	CRDs            []*generatedCRD  `json:"crds"`
	MarkerProblems  []*markerProblem `json:"markerProblems"`
	Errors          []goError        `json:"errors"`
	Stats           map[string]any   `json:"stats"`
}

// memOutput keeps what the generator writes.
type memOutput struct{ files map[string]*bytes.Buffer }

type nopCloser struct{ *bytes.Buffer }

func (nopCloser) Close() error { return nil }

func (m *memOutput) Open(_ *loader.Package, path string) (io.WriteCloser, error) {
	b := &bytes.Buffer{}
	m.files[path] = b
	return nopCloser{b}, nil
}

// moduleInput reads the header file relative to the module, where `make manifests` runs controller-gen.
type moduleInput struct{ dir string }

func (m moduleInput) OpenForRead(path string) (io.ReadCloser, error) {
	if !filepath.IsAbs(path) {
		path = filepath.Join(m.dir, path)
	}
	return os.Open(path)
}

func (w *workspace) generate(p generateParams) *generateResult {
	opts := resolveOptions(w.dir, p.Packages, p.Options)
	res := &generateResult{ControllerTools: controllerToolsVersion(), Options: opts.report(), CRDs: []*generatedCRD{}, MarkerProblems: []*markerProblem{}, Errors: []goError{}}
	for _, prob := range opts.problems {
		res.Errors = append(res.Errors, goError{Kind: "options", Message: prob})
	}
	t0 := time.Now()
	ls := w.sync(opts.packages, p.BuildFlags, p.Overlays)
	loadMs := time.Since(t0).Milliseconds()
	// nothing changed since the last answer for the same request: that answer stands
	key := cacheKey(res.Options, p)
	if ls.Kind == "none" && w.last != nil && w.lastKey == key {
		again := *w.last
		again.Stats = map[string]any{"load": "none", "loadMs": loadMs, "generateMs": 0, "sourceMapMs": 0, "packagesReparsed": 0, "packagesLoaded": ls.Loaded, "cached": true}
		return &again
	}
	defer func() { w.last, w.lastKey = res, key }()
	res.Stats = map[string]any{"load": ls.Kind, "loadMs": loadMs, "packagesReparsed": ls.Reparsed, "packagesLoaded": ls.Loaded}
	if w.loadErr != "" {
		res.Errors = append(res.Errors, goError{Kind: "list", Message: w.loadErr})
		return res
	}
	t1 := time.Now()
	reg := &markers.Registry{}
	if err := opts.gen.RegisterMarkers(reg); err != nil {
		res.Errors = append(res.Errors, goError{Kind: "generate", Message: err.Error()})
		return res
	}
	out := &memOutput{files: map[string]*bytes.Buffer{}}
	collector := &markers.Collector{Registry: reg}
	ctx := &genall.GenerationContext{
		Collector:  collector,
		Roots:      w.roots,
		Checker:    &loader.TypeChecker{NodeFilters: []loader.NodeFilter{opts.gen.CheckFilter()}},
		OutputRule: out,
		InputRule:  moduleInput{w.dir},
	}
	var genErr error
	func() {
		defer func() {
			if r := recover(); r != nil {
				genErr = fmt.Errorf("the crd generator failed: %v", r)
			}
		}()
		genErr = opts.gen.Generate(ctx)
	}()
	if genErr != nil {
		res.Errors = append(res.Errors, goError{Kind: "generate", Message: genErr.Error()})
	}
	names := make([]string, 0, len(out.files))
	for n := range out.files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		text := out.files[n].String()
		var obj map[string]any
		if err := yaml.Unmarshal([]byte(stripHeader(text)), &obj); err != nil || obj == nil {
			res.Errors = append(res.Errors, goError{Kind: "generate", Message: fmt.Sprintf("%s: generated YAML does not read back: %v", n, err)})
			continue
		}
		text = attribute(text, obj)
		c := &generatedCRD{FileName: n, CRD: obj}
		if p.YAML == nil || *p.YAML {
			c.YAML = text
		}
		c.Name, _ = dig(obj, "metadata", "name").(string)
		c.Group, _ = dig(obj, "spec", "group").(string)
		c.Kind, _ = dig(obj, "spec", "names", "kind").(string)
		res.CRDs = append(res.CRDs, c)
	}
	sort.SliceStable(res.CRDs, func(i, j int) bool { return res.CRDs[i].Name < res.CRDs[j].Name })
	genMs := time.Since(t1).Milliseconds()

	t2 := time.Now()
	assoc := newAssociations(w, reg)
	res.MarkerProblems = checkMarkers(w, assoc)
	if p.SourceMap == nil || *p.SourceMap {
		mapSources(w, assoc, collector, res.CRDs)
	}
	res.Errors = append(res.Errors, w.packageErrors(res.MarkerProblems)...)
	res.Stats["generateMs"] = genMs
	res.Stats["sourceMapMs"] = time.Since(t2).Milliseconds()
	return res
}

func cacheKey(options map[string]any, p generateParams) string {
	b, _ := json.Marshal([]any{options, p.SourceMap, p.YAML, p.BuildFlags})
	return string(b)
}

// packageErrors reports what controller-gen would print about the loaded packages (and the type errors it
// tolerates), leaving out marker errors already reported as marker problems.
func (w *workspace) packageErrors(probs []*markerProblem) []goError {
	atLine := map[string]bool{}
	for _, p := range probs {
		atLine[fmt.Sprintf("%s:%d", p.Span.File, p.Span.Line)] = true
	}
	var out []goError
	seen := map[string]bool{}
	for _, pkg := range w.local {
		for _, e := range pkg.Errors {
			if e.Kind == packages.TypeError {
				// controller-gen prints no type errors: its loader leaves out zz_generated files
				// (-tags=ignore_autogenerated) and checks only what CRD types reach, so most are artefacts;
				// one that breaks a CRD type comes back as the generator's own error ("unknown type X")
				continue
			}
			kind := map[packages.ErrorKind]string{packages.ListError: "list", packages.ParseError: "syntax", packages.TypeError: "type"}[e.Kind]
			if kind == "" {
				kind = "generate"
			}
			var ps *pos
			if file, line, col, ok := splitPos(e.Pos); ok {
				ps = &pos{File: file, Line: line, Col: col, Offset: -1}
				if f := w.fset.File(w.filePos(file)); f != nil && line <= f.LineCount() {
					ps.Offset = f.Offset(f.LineStart(line)) + col - 1
				}
				if atLine[fmt.Sprintf("%s:%d", file, line)] {
					continue
				}
			}
			key := e.Pos + "\x00" + e.Msg
			if seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, goError{Kind: kind, Message: e.Msg, Pos: ps})
		}
	}
	return out
}

func (w *workspace) filePos(file string) (p token.Pos) {
	w.fset.Iterate(func(f *token.File) bool {
		if f.Name() == file {
			p = token.Pos(f.Base())
			return false
		}
		return true
	})
	return p
}

// splitPos reads "file:line:col" (or "file:line").
func splitPos(s string) (string, int, int, bool) {
	parts := strings.Split(s, ":")
	if len(parts) >= 3 {
		l, e1 := strconv.Atoi(parts[len(parts)-2])
		c, e2 := strconv.Atoi(parts[len(parts)-1])
		if e1 == nil && e2 == nil {
			return strings.Join(parts[:len(parts)-2], ":"), l, c, true
		}
	}
	if len(parts) >= 2 {
		if l, err := strconv.Atoi(parts[len(parts)-1]); err == nil {
			return strings.Join(parts[:len(parts)-1], ":"), l, 1, true
		}
	}
	return "", 0, 0, false
}

func stripHeader(text string) string {
	// controller-gen writes the header, then "---", then the object
	if i := strings.Index(text, "---\n"); i >= 0 {
		return text[i+4:]
	}
	return text
}

func dig(v any, path ...string) any {
	for _, k := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

// controllerToolsVersion is the controller-tools module this binary was built with.
func controllerToolsVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, d := range info.Deps {
			if d.Path == "sigs.k8s.io/controller-tools" {
				return d.Version
			}
		}
	}
	return version.Version()
}

// attribute makes the controller-gen version annotation name the controller-tools version, as
// controller-gen's own binary does: controller-tools reads it from the main module's version, which for
// crdgen is its own ("(devel)") unless the build set it with -ldflags.
func attribute(text string, obj map[string]any) string {
	got, want := version.Version(), controllerToolsVersion()
	if got == want {
		return text
	}
	const key = "controller-gen.kubebuilder.io/version"
	if ann, ok := dig(obj, "metadata", "annotations").(map[string]any); ok && ann[key] == got {
		ann[key] = want
		return strings.Replace(text, key+": "+got+"\n", key+": "+want+"\n", 1)
	}
	return text
}
