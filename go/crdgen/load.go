package main

// Loading a module's API packages through controller-tools' loader (go/packages underneath), with the
// editor's unsaved buffers as overlays, and keeping them loaded: after an edit only the packages whose
// files changed, and the loaded packages that import them, are parsed and type-checked again.

import (
	"crypto/sha256"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"golang.org/x/tools/go/packages"
	"sigs.k8s.io/controller-tools/pkg/loader"
)

type workspace struct {
	dir        string
	patterns   []string
	buildFlags []string
	overlays   map[string][]byte

	fset      *token.FileSet
	roots     []*loader.Package
	pkgs      map[string]*loader.Package // every loaded package, by import path
	importers map[*loader.Package][]*loader.Package
	local     []*loader.Package // packages whose files live in the module directory
	loadErr   string

	fileHash    map[string][32]byte
	fileImports map[string]string
	dirFiles    map[string]string
	modStamp    [32]byte

	packageDirs map[string]bool // directories of the loaded local packages
	seenDirs    map[string]bool // overlay directories that made a reload once

	last    *generateResult // the last answer, given again while nothing changes
	lastKey string
}

func newWorkspace(dir string) *workspace { return &workspace{dir: dir} }

type loadStats struct {
	Kind     string `json:"load"`
	Reparsed int    `json:"packagesReparsed"`
	Loaded   int    `json:"packagesLoaded"`
}

// sync brings the loaded packages in line with the files on disk and the overlays.
func (w *workspace) sync(patterns, buildFlags []string, overlays map[string]string) loadStats {
	ov := make(map[string][]byte, len(overlays))
	for k, v := range overlays {
		ov[filepath.Clean(k)] = []byte(v)
	}
	w.overlays = ov
	if w.roots == nil || !sameStrings(patterns, w.patterns) || !sameStrings(buildFlags, w.buildFlags) || w.modStamp != w.moduleStamp() {
		return w.fullLoad(patterns, buildFlags)
	}
	// a Go file in a directory the patterns cover that held no loaded package (a new API version being
	// written): go list must see it
	for f := range ov {
		dir := filepath.Dir(f)
		if strings.HasSuffix(f, ".go") && !strings.HasSuffix(f, "_test.go") && !w.packageDirs[dir] && !w.seenDirs[dir] && w.covers(dir) {
			w.seenDirs[dir] = true // once: if it still holds no package after the reload, it stays that way
			return w.fullLoad(patterns, buildFlags)
		}
	}
	// which local packages changed, and how
	changed := map[*loader.Package]map[string]*ast.File{}
	for _, pkg := range w.local {
		if w.dirListing(pkgDir(pkg)) != w.dirFiles[pkgDir(pkg)] {
			return w.fullLoad(patterns, buildFlags)
		}
		for _, f := range pkg.CompiledGoFiles {
			src, err := w.read(f)
			if err != nil {
				return w.fullLoad(patterns, buildFlags)
			}
			if sha256.Sum256(src) == w.fileHash[f] {
				continue
			}
			file, _ := parser.ParseFile(w.fset, f, src, parser.AllErrors|parser.ParseComments)
			if file == nil || importList(file) != w.fileImports[f] {
				return w.fullLoad(patterns, buildFlags)
			}
			if changed[pkg] == nil {
				changed[pkg] = map[string]*ast.File{}
			}
			changed[pkg][f] = file
		}
	}
	if len(changed) == 0 {
		return loadStats{Kind: "none", Loaded: len(w.pkgs)}
	}
	// drop the type information of the changed packages and of everything that imports them
	stale := map[*loader.Package]bool{}
	var mark func(p *loader.Package)
	mark = func(p *loader.Package) {
		if stale[p] {
			return
		}
		stale[p] = true
		for _, imp := range w.importers[p] {
			mark(imp)
		}
	}
	for pkg := range changed {
		mark(pkg)
	}
	for pkg := range stale {
		pkg.Types, pkg.TypesInfo, pkg.IllTyped = nil, nil, false
		pkg.Errors = listErrors(pkg.Errors)
		if files := changed[pkg]; files != nil {
			w.parsePackage(pkg, files)
		} else if pkg.Syntax != nil {
			// keep the syntax; its parse errors stay reported
			w.reportParseErrors(pkg)
		}
	}
	return loadStats{Kind: "incremental", Reparsed: len(stale), Loaded: len(w.pkgs)}
}

func (w *workspace) fullLoad(patterns, buildFlags []string) loadStats {
	w.patterns, w.buildFlags = append([]string(nil), patterns...), append([]string(nil), buildFlags...)
	w.fset = token.NewFileSet()
	w.roots, w.pkgs, w.importers, w.local, w.loadErr = nil, map[string]*loader.Package{}, map[*loader.Package][]*loader.Package{}, nil, ""
	w.fileHash, w.fileImports, w.dirFiles = map[string][32]byte{}, map[string]string{}, map[string]string{}
	w.modStamp = w.moduleStamp()
	cfg := &packages.Config{Dir: w.dir, Fset: w.fset, Overlay: w.overlays, BuildFlags: append([]string(nil), buildFlags...)}
	roots, err := loader.LoadRootsWithConfig(cfg, patterns...)
	if err != nil {
		w.loadErr = err.Error()
		return loadStats{Kind: "full"}
	}
	w.roots = roots
	var visit func(p *loader.Package)
	visit = func(p *loader.Package) {
		if _, seen := w.pkgs[p.PkgPath]; seen {
			return
		}
		w.pkgs[p.PkgPath] = p
		for _, imp := range p.Imports() {
			w.importers[imp] = append(w.importers[imp], p)
			visit(imp)
		}
	}
	for _, r := range roots {
		visit(r)
	}
	prefix := w.dir + string(filepath.Separator)
	for _, p := range w.pkgs {
		if d := pkgDir(p); d != "" && (d == w.dir || strings.HasPrefix(d, prefix)) {
			w.local = append(w.local, p)
		}
	}
	sort.Slice(w.local, func(i, j int) bool { return w.local[i].PkgPath < w.local[j].PkgPath })
	w.packageDirs = map[string]bool{}
	if w.seenDirs == nil {
		w.seenDirs = map[string]bool{}
	}
	for _, p := range w.local {
		w.packageDirs[pkgDir(p)] = true
		w.dirFiles[pkgDir(p)] = w.dirListing(pkgDir(p))
		w.parsePackage(p, nil)
	}
	return loadStats{Kind: "full", Reparsed: len(w.local), Loaded: len(w.pkgs)}
}

// parsePackage sets the package's syntax from overlays or disk (controller-tools' own NeedSyntax reads only
// the disk). A file that does not parse keeps its partial syntax and its errors are reported.
func (w *workspace) parsePackage(p *loader.Package, parsed map[string]*ast.File) {
	files := make([]*ast.File, 0, len(p.CompiledGoFiles))
	for _, f := range p.CompiledGoFiles {
		src, err := w.read(f)
		if err != nil {
			p.AddError(err)
			continue
		}
		file := parsed[f]
		if file == nil {
			file, _ = parser.ParseFile(w.fset, f, src, parser.AllErrors|parser.ParseComments)
		}
		w.fileHash[f] = sha256.Sum256(src)
		if file != nil {
			w.fileImports[f] = importList(file)
			files = append(files, file)
		}
	}
	p.Syntax = files
	w.reportParseErrors(p)
}

func (w *workspace) reportParseErrors(p *loader.Package) {
	for _, f := range p.CompiledGoFiles {
		src, err := w.read(f)
		if err != nil {
			continue
		}
		if _, err := parser.ParseFile(token.NewFileSet(), f, src, parser.AllErrors); err != nil {
			p.AddError(err)
		}
	}
}

func (w *workspace) read(file string) ([]byte, error) {
	if src, ok := w.overlays[file]; ok {
		return src, nil
	}
	return os.ReadFile(file)
}

// dirListing names the Go files a package directory has now, on disk and in overlays.
func (w *workspace) dirListing(dir string) string {
	var names []string
	if entries, err := os.ReadDir(dir); err == nil {
		for _, e := range entries {
			if n := e.Name(); strings.HasSuffix(n, ".go") && !e.IsDir() {
				names = append(names, n)
			}
		}
	}
	for f := range w.overlays {
		if filepath.Dir(f) == dir && strings.HasSuffix(f, ".go") {
			if _, err := os.Stat(f); err != nil {
				names = append(names, filepath.Base(f))
			}
		}
	}
	sort.Strings(names)
	return strings.Join(names, "\x00")
}

func (w *workspace) moduleStamp() [32]byte {
	var all []byte
	for _, n := range []string{"go.mod", "go.sum", "go.work", "go.work.sum"} {
		b, _ := w.read(filepath.Join(w.dir, n))
		all = append(append(all, b...), 0)
	}
	return sha256.Sum256(all)
}

// covers: would the loaded patterns (./x/..., ./x, ./...) take a package in dir?
func (w *workspace) covers(dir string) bool {
	for _, p := range w.patterns {
		rec := strings.HasSuffix(p, "/...") || p == "..."
		base := filepath.Join(w.dir, filepath.FromSlash(strings.TrimSuffix(strings.TrimSuffix(p, "..."), "/")))
		if dir == base || rec && strings.HasPrefix(dir, base+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

func pkgDir(p *loader.Package) string {
	if len(p.CompiledGoFiles) > 0 {
		return filepath.Dir(p.CompiledGoFiles[0])
	}
	if len(p.GoFiles) > 0 {
		return filepath.Dir(p.GoFiles[0])
	}
	return ""
}

func importList(f *ast.File) string {
	var out []string
	for _, imp := range f.Imports {
		out = append(out, imp.Path.Value)
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}

func listErrors(errs []packages.Error) []packages.Error {
	var out []packages.Error
	for _, e := range errs {
		if e.Kind == packages.ListError {
			out = append(out, e)
		}
	}
	return out
}

func sameStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
