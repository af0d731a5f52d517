package main

// The crd generator's options as the project runs it: the `controller-gen ... crd:... paths=...` line of
// its Makefile (or a //go:generate line), parsed with controller-tools' own option definition, so that an
// option is understood exactly as controller-gen understands it.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"unicode"

	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/markers"
)

type generateParams struct {
	ModuleDir  string                     `json:"moduleDir"`
	Packages   []string                   `json:"packages"`
	Overlays   map[string]string          `json:"overlays"`
	Options    map[string]json.RawMessage `json:"options"`
	SourceMap  *bool                      `json:"sourceMap"`
	YAML       *bool                      `json:"yaml"`
	BuildFlags []string                   `json:"buildFlags"`
}

type resolvedOptions struct {
	gen      crd.Generator
	source   string
	packages []string
	problems []string
}

func (o resolvedOptions) report() map[string]any {
	out := map[string]any{"source": o.source, "packages": o.packages}
	v := reflect.ValueOf(o.gen)
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		if !v.Type().Field(i).IsExported() || f.IsZero() {
			continue
		}
		if f.Kind() == reflect.Pointer {
			f = f.Elem()
		}
		out[lowerFirst(v.Type().Field(i).Name)] = f.Interface()
	}
	if len(o.problems) > 0 {
		out["problems"] = o.problems
	}
	return out
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	// CRDVersions -> crdVersions, as controller-tools names its option arguments.
	n := 0
	for n < len(r) && unicode.IsUpper(r[n]) {
		n++
	}
	if n > 1 && n < len(r) {
		n--
	}
	for i := 0; i < n; i++ {
		r[i] = unicode.ToLower(r[i])
	}
	return string(r)
}

var crdOptionDef = markers.Must(markers.MakeDefinition("crd", markers.DescribesPackage, crd.Generator{}))

// resolveOptions: request options override the project's controller-gen line, which overrides defaults.
func resolveOptions(moduleDir string, packages []string, req map[string]json.RawMessage) resolvedOptions {
	var out resolvedOptions
	out.source = "default"
	line := findControllerGenLine(moduleDir)
	if line != nil {
		out.source = line.source
		for _, tok := range line.crdTokens {
			out.merge(tok)
		}
		out.packages = line.paths
	}
	if len(req) > 0 {
		keys := make([]string, 0, len(req))
		for k := range req {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if k == "raw" {
				var raw string
				if err := json.Unmarshal(req[k], &raw); err != nil {
					out.problems = append(out.problems, "options.raw is not a string")
					continue
				}
				for _, tok := range strings.Fields(raw) {
					out.merge(tok)
				}
				continue
			}
			if err := setOption(&out.gen, k, req[k]); err != nil {
				out.problems = append(out.problems, err.Error())
			}
		}
		if out.source == "default" {
			out.source = "request"
		} else {
			out.source += " and request"
		}
	}
	if len(packages) > 0 {
		out.packages = packages
	}
	if len(out.packages) == 0 {
		out.packages = []string{"./..."}
	}
	return out
}

// merge parses one `crd` or `crd:a=b,c=d` token as controller-gen does and lays its set fields over ours.
func (o *resolvedOptions) merge(tok string) {
	tok = strings.Trim(tok, `"'`)
	if tok != "crd" && !strings.HasPrefix(tok, "crd:") {
		return
	}
	val, err := crdOptionDef.Parse("+" + tok)
	if err != nil {
		o.problems = append(o.problems, fmt.Sprintf("controller-gen would reject %q: %v", tok, err))
		// keep the arguments it does understand, one at a time
		if rest, ok := strings.CutPrefix(tok, "crd:"); ok {
			for _, arg := range splitTopLevel(rest, ',') {
				if v, err := crdOptionDef.Parse("+crd:" + arg); err == nil {
					overlayStruct(&o.gen, v.(crd.Generator))
				}
			}
		}
		return
	}
	overlayStruct(&o.gen, val.(crd.Generator))
}

func overlayStruct(dst *crd.Generator, src crd.Generator) {
	dv := reflect.ValueOf(dst).Elem()
	sv := reflect.ValueOf(src)
	for i := 0; i < sv.NumField(); i++ {
		if dv.Type().Field(i).IsExported() && !sv.Field(i).IsZero() {
			dv.Field(i).Set(sv.Field(i))
		}
	}
}

// setOption sets the generator field whose controller-gen argument name is key.
func setOption(g *crd.Generator, key string, raw json.RawMessage) error {
	v := reflect.ValueOf(g).Elem()
	for i := 0; i < v.NumField(); i++ {
		sf := v.Type().Field(i)
		if !sf.IsExported() || !strings.EqualFold(lowerFirst(sf.Name), key) {
			continue
		}
		if string(raw) == "null" {
			return nil
		}
		p := reflect.New(sf.Type)
		if err := json.Unmarshal(raw, p.Interface()); err != nil {
			return fmt.Errorf("option %s: %v", key, err)
		}
		v.Field(i).Set(p.Elem())
		return nil
	}
	return fmt.Errorf("option %s is not a crd option of controller-tools %s", key, controllerToolsVersion())
}

type controllerGenLine struct {
	source    string
	crdTokens []string
	paths     []string
}

var makeAssign = regexp.MustCompile(`^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*(?:\?=|:=|::=|\+=|=)\s*(.*)$`)
var makeVarRef = regexp.MustCompile(`\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]`)

// findControllerGenLine looks for the command line that runs controller-gen's crd generator: the
// Makefile (and *.mk beside it) first, then //go:generate lines in the API directories.
func findControllerGenLine(moduleDir string) *controllerGenLine {
	var makefiles []string
	for _, name := range []string{"Makefile", "makefile", "GNUmakefile"} {
		if _, err := os.Stat(filepath.Join(moduleDir, name)); err == nil {
			makefiles = append(makefiles, filepath.Join(moduleDir, name))
		}
	}
	mks, _ := filepath.Glob(filepath.Join(moduleDir, "*.mk"))
	makefiles = append(makefiles, mks...)
	vars := map[string]string{}
	type logical struct {
		file string
		line int
		text string
	}
	var lines []logical
	for _, mf := range makefiles {
		data, err := os.ReadFile(mf)
		if err != nil || len(data) > 4<<20 {
			continue
		}
		raw := strings.Split(string(data), "\n")
		for i := 0; i < len(raw); i++ {
			start := i
			text := raw[i]
			for strings.HasSuffix(strings.TrimRight(text, " \t\r"), `\`) && i+1 < len(raw) {
				text = strings.TrimSuffix(strings.TrimRight(text, " \t\r"), `\`) + " " + raw[i+1]
				i++
			}
			if m := makeAssign.FindStringSubmatch(text); m != nil && !strings.HasPrefix(text, "\t") {
				if _, seen := vars[m[1]]; !seen || strings.Contains(text, "+=") {
					vars[m[1]] = strings.TrimSpace(vars[m[1]] + " " + strings.TrimSpace(m[2]))
				}
			}
			lines = append(lines, logical{mf, start + 1, text})
		}
	}
	expand := func(s string) string {
		for round := 0; round < 4 && strings.Contains(s, "$"); round++ {
			s = makeVarRef.ReplaceAllStringFunc(s, func(ref string) string {
				name := makeVarRef.FindStringSubmatch(ref)[1]
				if v, ok := vars[name]; ok {
					return v
				}
				return ref
			})
		}
		return s
	}
	for _, l := range lines {
		if !strings.Contains(l.text, "controller-gen") && !strings.Contains(l.text, "CONTROLLER_GEN") && !strings.Contains(l.text, "CONTROLLER-GEN") {
			continue
		}
		if makeAssign.MatchString(l.text) && !strings.HasPrefix(l.text, "\t") {
			continue // the variable naming the binary, not a run of it
		}
		if found := parseGenCommand(expand(l.text), ""); found != nil {
			rel, _ := filepath.Rel(moduleDir, l.file)
			found.source = fmt.Sprintf("%s:%d", filepath.ToSlash(rel), l.line)
			return found
		}
	}
	return findGoGenerate(moduleDir)
}

// findGoGenerate scans the usual API directories for a //go:generate controller-gen crd line (bounded).
func findGoGenerate(moduleDir string) *controllerGenLine {
	budget := 2000
	var found *controllerGenLine
	for _, top := range []string{"api", "apis", "pkg/apis", "pkg/api", "."} {
		root := filepath.Join(moduleDir, top)
		_ = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
			if err != nil || found != nil || budget <= 0 {
				return filepath.SkipDir
			}
			if d.IsDir() {
				name := d.Name()
				if path != root && (strings.HasPrefix(name, ".") || name == "vendor" || name == "testdata" || name == "node_modules") {
					return filepath.SkipDir
				}
				if top == "." && path != root {
					return filepath.SkipDir // the module root's own files only
				}
				return nil
			}
			if !strings.HasSuffix(path, ".go") {
				return nil
			}
			budget--
			data, err := os.ReadFile(path)
			if err != nil {
				return nil
			}
			for i, line := range strings.Split(string(data), "\n") {
				if !strings.HasPrefix(line, "//go:generate ") || !strings.Contains(line, "controller-gen") {
					continue
				}
				if g := parseGenCommand(line, filepath.Dir(path)); g != nil {
					rel, _ := filepath.Rel(moduleDir, path)
					g.source = fmt.Sprintf("%s:%d", filepath.ToSlash(rel), i+1)
					// go:generate runs in the file's directory: make its paths module-relative
					for j, p := range g.paths {
						abs := filepath.Join(filepath.Dir(path), p)
						if r, err := filepath.Rel(moduleDir, abs); err == nil {
							g.paths[j] = "./" + filepath.ToSlash(r)
							if strings.HasSuffix(p, "/...") && !strings.HasSuffix(g.paths[j], "/...") {
								g.paths[j] += "/..."
							}
						}
					}
					found = g
					return filepath.SkipAll
				}
			}
			return nil
		})
		if found != nil {
			return found
		}
	}
	return nil
}

// parseGenCommand picks the crd generator's tokens and paths= out of one controller-gen command line.
func parseGenCommand(text string, _ string) *controllerGenLine {
	var g controllerGenLine
	hasCrd := false
	for _, tok := range shellFields(text) {
		switch {
		case tok == "crd" || strings.HasPrefix(tok, "crd:"):
			hasCrd = true
			g.crdTokens = append(g.crdTokens, tok)
		case strings.HasPrefix(tok, "paths="):
			for _, p := range strings.Split(strings.Trim(strings.TrimPrefix(tok, "paths="), `"'`), ";") {
				if p = strings.TrimSpace(p); p != "" {
					g.paths = append(g.paths, p)
				}
			}
		}
	}
	if !hasCrd {
		return nil
	}
	return &g
}

// shellFields splits a command line on blanks outside quotes, dropping the quotes.
func shellFields(s string) []string {
	var out []string
	var cur strings.Builder
	var quote rune
	has := false
	for _, r := range s {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			} else {
				cur.WriteRune(r)
			}
		case r == '"' || r == '\'':
			quote = r
			has = true
		case r == ' ' || r == '\t' || r == '\r':
			if cur.Len() > 0 || has {
				out = append(out, cur.String())
			}
			cur.Reset()
			has = false
		default:
			cur.WriteRune(r)
			has = true
		}
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

// splitTopLevel splits on sep outside quotes, backquotes, braces and parentheses.
func splitTopLevel(s string, sep byte) []string {
	var out []string
	depth := 0
	var quote byte
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' && quote == '"' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '`':
			quote = c
		case c == '{' || c == '(' || c == '[':
			depth++
		case c == '}' || c == ')' || c == ']':
			depth--
		case c == sep && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}
