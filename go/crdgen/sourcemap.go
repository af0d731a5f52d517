package main

// The source map: each schema node of a generated CRD is matched to the Go type and field it was made
// from by walking the Go types alongside the generated schema (properties by JSON name, items, additional
// properties), and each marker on those types and fields is tried on its own through its own
// ApplyToSchema / ApplyToCRD (controller-tools' code, called by reflection because its signature changed
// between versions) to learn which keyword it produced.

import (
	"encoding/json"
	"go/ast"
	"go/token"
	"go/types"
	"reflect"
	"sort"
	"strconv"
	"strings"

	apiext "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/markers"
)

type pos struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Col    int    `json:"col"`
	Offset int    `json:"offset"`
}

type span struct {
	File      string `json:"file"`
	Line      int    `json:"line"`
	Col       int    `json:"col"`
	Offset    int    `json:"offset"`
	EndLine   int    `json:"endLine"`
	EndCol    int    `json:"endCol"`
	EndOffset int    `json:"endOffset"`
}

type node struct {
	GoType string `json:"goType"`
	Type   *pos   `json:"type,omitempty"`
	Field  *pos   `json:"field,omitempty"`
}

type argOut struct {
	Name string `json:"name"`
	Span span   `json:"span"`
}

type effect struct {
	Pointer string `json:"pointer"`
	Keyword string `json:"keyword"`
}

type markerOut struct {
	Span    span     `json:"span"`
	Text    string   `json:"text"`
	Name    string   `json:"name"`
	Target  string   `json:"target"`
	Args    []argOut `json:"args"`
	Effects []effect `json:"effects"`
}

func (w *workspace) pos(p token.Pos) *pos {
	if !p.IsValid() {
		return nil
	}
	tp := w.fset.Position(p)
	return &pos{File: tp.Filename, Line: tp.Line, Col: tp.Column, Offset: tp.Offset}
}

// spanIn is the byte range [from, to) of a one-line comment's text.
func (w *workspace) spanIn(c *ast.Comment, from, to int) span {
	a := w.fset.Position(c.Slash + token.Pos(from))
	return span{File: a.Filename, Line: a.Line, Col: a.Column, Offset: a.Offset, EndLine: a.Line, EndCol: a.Column + (to - from), EndOffset: a.Offset + (to - from)}
}

// markerStart is the offset of '+' in the comment's text, markerEnd the end of the marker (trailing blanks dropped).
func markerStart(c *ast.Comment) int {
	i := 2
	for i < len(c.Text) && (c.Text[i] == ' ' || c.Text[i] == '\t') {
		i++
	}
	return i
}

func markerEnd(c *ast.Comment) int { return len(strings.TrimRight(c.Text, " \t\r")) }

type mapper struct {
	w         *workspace
	a         *associations
	col       *markers.Collector
	crd       *generatedCRD
	markers   map[token.Pos]*markerOut
	versionIx int
	version   string
}

func mapSources(w *workspace, a *associations, col *markers.Collector, crds []*generatedCRD) {
	for _, c := range crds {
		m := &mapper{w: w, a: a, col: col, crd: c, markers: map[token.Pos]*markerOut{}}
		c.Nodes = map[string]node{}
		versions, _ := dig(c.CRD, "spec", "versions").([]any)
		for i, v := range versions {
			name, _ := dig(v, "name").(string)
			schema, _ := dig(v, "schema", "openAPIV3Schema").(map[string]any)
			pkg, obj := m.rootType(c.Group, name, c.Kind)
			if obj == nil || schema == nil {
				continue
			}
			m.versionIx, m.version = i, name
			ptr := "/spec/versions/" + strconv.Itoa(i) + "/schema/openAPIV3Schema"
			m.packageMarkers(pkg)
			m.walk(ptr, obj.Type(), schema, nil, nil, 0)
		}
		c.Markers = make([]*markerOut, 0, len(m.markers))
		for _, mo := range m.markers {
			c.Markers = append(c.Markers, mo)
		}
		sort.Slice(c.Markers, func(i, j int) bool {
			a, b := c.Markers[i].Span, c.Markers[j].Span
			if a.File != b.File {
				return a.File < b.File
			}
			return a.Offset < b.Offset
		})
	}
}

// rootType finds the Go type a CRD version was generated from: the kind's type in the root package of
// that group and version (+groupName, +versionName or the package name, as controller-gen reads them).
func (m *mapper) rootType(group, version, kind string) (*loader.Package, types.Object) {
	for _, pkg := range m.w.roots {
		if pkg.Types == nil {
			continue
		}
		pm, err := markers.PackageMarkers(m.col, pkg)
		if err != nil {
			continue
		}
		g, _ := pm.Get("groupName").(string)
		v, _ := pm.Get("versionName").(string)
		if v == "" {
			v = pkg.Name
		}
		if g != group || v != version {
			continue
		}
		if obj := pkg.Types.Scope().Lookup(kind); obj != nil {
			return pkg, obj
		}
	}
	return nil, nil
}

func (m *mapper) packageMarkers(pkg *loader.Package) {
	for n, cs := range m.a.of(pkg) {
		if _, ok := n.(*ast.File); !ok {
			continue
		}
		for _, c := range cs {
			var effects []effect
			switch def := m.a.reg.Lookup(c.text(), markers.DescribesPackage); {
			case def == nil:
				continue
			case def.Name == "groupName":
				effects = []effect{{Pointer: "/spec/group", Keyword: "group"}}
			case def.Name == "versionName":
				effects = []effect{{Pointer: "/spec/versions/" + strconv.Itoa(m.versionIx) + "/name", Keyword: "name"}}
			}
			m.record(c, markers.DescribesPackage, effects)
		}
	}
}

func (m *mapper) pkgOf(obj types.Object) *loader.Package {
	if obj == nil || obj.Pkg() == nil {
		return nil
	}
	return m.w.pkgs[obj.Pkg().Path()]
}

func (m *mapper) specOf(obj types.Object) (*loader.Package, *ast.TypeSpec) {
	pkg := m.pkgOf(obj)
	if pkg == nil {
		return nil, nil
	}
	m.a.of(pkg)
	return pkg, m.a.specs[pkg][obj.Pos()]
}

func (m *mapper) fieldOf(v *types.Var) *ast.Field {
	pkg := m.pkgOf(v)
	if pkg == nil {
		return nil
	}
	m.a.of(pkg)
	return m.a.fields[pkg][v.Pos()]
}

type parentInfo struct {
	ptr    string
	schema map[string]any
	name   string
}

// walk maps the node at ptr (schema) to the Go type t it was generated from.
func (m *mapper) walk(ptr string, t types.Type, schema map[string]any, field *ast.Field, parent *parentInfo, depth int) {
	if depth > 64 || schema == nil {
		return
	}
	entry, seen := m.crd.Nodes[ptr]
	if field != nil && entry.Field == nil {
		entry.Field = m.fieldPos(field)
		m.fieldMarkers(field, ptr, schema, parent)
	}
	for hops := 0; hops < 16; hops++ {
		t = pointee(t)
		named, ok := types.Unalias(t).(*types.Named)
		if !ok {
			break
		}
		obj := named.Obj()
		if entry.GoType == "" {
			entry.GoType = qualified(obj)
		}
		if entry.Type == nil {
			entry.Type = m.w.pos(obj.Pos())
		}
		pkg, spec := m.specOf(obj)
		if spec != nil {
			for _, c := range m.a.of(pkg)[spec] {
				m.applyMarker(c, markers.DescribesType, ptr, schema, parent)
			}
			// a defined type made from another named type takes that type's schema and markers too
			if pkg.TypesInfo != nil {
				if next, ok := types.Unalias(pkg.TypesInfo.TypeOf(spec.Type)).(*types.Named); ok && next != named {
					t = next
					continue
				}
			}
		}
		t = named.Underlying()
		break
	}
	if entry.GoType == "" {
		entry.GoType = types.TypeString(t, func(p *types.Package) string { return p.Path() })
	}
	if !seen || field != nil || entry.Type != nil {
		m.crd.Nodes[ptr] = entry
	}
	switch u := t.(type) {
	case *types.Struct:
		props, _ := schema["properties"].(map[string]any)
		for i := 0; i < u.NumFields(); i++ {
			v := u.Field(i)
			tag, hasTag := reflect.StructTag(u.Tag(i)).Lookup("json")
			name, opts, _ := strings.Cut(tag, ",")
			af := m.fieldOf(v)
			switch {
			case name == "-":
			case (v.Embedded() && name == "") || strings.Contains(","+opts+",", ",inline,"):
				if !hasTag && !v.Embedded() {
					continue
				}
				m.walkInline(ptr, v.Type(), schema, af, parent, depth+1)
			case !hasTag || name == "":
			default:
				if sub, ok := props[name].(map[string]any); ok {
					m.walk(ptr+"/properties/"+escapePointer(name), v.Type(), sub, af, &parentInfo{ptr: ptr, schema: schema, name: name}, depth+1)
				}
			}
		}
	case *types.Slice:
		if b, ok := u.Elem().Underlying().(*types.Basic); ok && b.Kind() == types.Byte {
			return
		}
		if items, ok := schema["items"].(map[string]any); ok {
			m.walk(ptr+"/items", u.Elem(), items, nil, nil, depth+1)
		}
	case *types.Array:
		if items, ok := schema["items"].(map[string]any); ok {
			m.walk(ptr+"/items", u.Elem(), items, nil, nil, depth+1)
		}
	case *types.Map:
		if ap, ok := schema["additionalProperties"].(map[string]any); ok {
			m.walk(ptr+"/additionalProperties", u.Elem(), ap, nil, nil, depth+1)
		}
	}
}

// walkInline maps an embedded (inlined) struct's fields into the node that embeds it.
func (m *mapper) walkInline(ptr string, t types.Type, schema map[string]any, field *ast.Field, parent *parentInfo, depth int) {
	if field != nil {
		m.fieldMarkers(field, ptr, schema, parent)
	}
	t = pointee(t)
	saved, had := m.crd.Nodes[ptr]
	m.walk(ptr, t, schema, nil, parent, depth)
	if had { // the embedding type stays the node's type
		m.crd.Nodes[ptr] = saved
	}
}

func (m *mapper) pkgOfField(f *ast.Field) *loader.Package { return m.a.fieldPkg[f] }

// fieldMarkers applies a field's own markers to the schema node the field made.
func (m *mapper) fieldMarkers(field *ast.Field, ptr string, schema map[string]any, parent *parentInfo) {
	for _, c := range m.a.of(m.pkgOfField(field))[field] {
		m.applyMarker(c, markers.DescribesField, ptr, schema, parent)
	}
}

// pointee is the type a chain of pointers leads to (bounded, as controller-gen's own walk is).
func pointee(t types.Type) types.Type {
	for hops := 0; hops < 16; hops++ {
		p, ok := types.Unalias(t).(*types.Pointer)
		if !ok {
			break
		}
		t = p.Elem()
	}
	return t
}

func (m *mapper) fieldPos(f *ast.Field) *pos {
	if len(f.Names) > 0 {
		return m.w.pos(f.Names[0].Pos())
	}
	return m.w.pos(f.Type.Pos())
}

func qualified(obj types.Object) string {
	if obj.Pkg() == nil {
		return obj.Name()
	}
	return obj.Pkg().Path() + "." + obj.Name()
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// record adds a marker (once per comment) with its effects.
func (m *mapper) record(c markerComment, target markers.TargetType, effects []effect) *markerOut {
	mo := m.markers[c.Slash]
	if mo == nil {
		start, end := markerStart(c.Comment), markerEnd(c.Comment)
		def := m.a.reg.Lookup(c.text(), target)
		name := ""
		if def != nil {
			name = def.Name
		}
		mo = &markerOut{Span: m.w.spanIn(c.Comment, start, end), Text: c.Text[start:end], Name: name,
			Target: targetName(target), Args: m.args(c.Comment, start, end, name), Effects: []effect{}}
		m.markers[c.Slash] = mo
	}
	for _, e := range effects {
		dup := false
		for _, have := range mo.Effects {
			if have == e {
				dup = true
				break
			}
		}
		if !dup {
			mo.Effects = append(mo.Effects, e)
		}
	}
	return mo
}

func targetName(t markers.TargetType) string {
	switch t {
	case markers.DescribesPackage:
		return "package"
	case markers.DescribesField:
		return "field"
	}
	return "type"
}

// args finds each argument value's byte range: `name=value` (anonymous) or `name:a=1,b="x"`.
func (m *mapper) args(c *ast.Comment, start, end int, name string) []argOut {
	out := []argOut{}
	text := c.Text[start:end]
	if name == "" || !strings.HasPrefix(text, "+"+name) {
		return out
	}
	rest := 1 + len(name)
	if rest >= len(text) {
		return out
	}
	switch text[rest] {
	case '=':
		out = append(out, argOut{Name: "", Span: m.w.spanIn(c, start+rest+1, end)})
	case ':':
		off := rest + 1
		for _, part := range splitTopLevel(text[rest+1:], ',') {
			if k, _, ok := strings.Cut(part, "="); ok {
				vs := off + len(k) + 1
				out = append(out, argOut{Name: strings.TrimSpace(k), Span: m.w.spanIn(c, start+vs, start+off+len(part))})
			}
			off += len(part) + 1
		}
	}
	return out
}

// applyMarker records a marker found at ptr, with what it produced there.
func (m *mapper) applyMarker(c markerComment, target markers.TargetType, ptr string, schema map[string]any, parent *parentInfo) {
	def := m.a.reg.Lookup(c.text(), target)
	if def == nil {
		return // not the crd generator's: reported by checkMarkers if nobody's
	}
	parsed, ok := m.a.parsed[c.Slash]
	if !ok {
		v, err := def.Parse(c.text())
		parsed = parsedMarker{v, err}
		m.a.parsed[c.Slash] = parsed
	}
	if parsed.err != nil {
		m.record(c, target, nil)
		return
	}
	val := parsed.val
	var effects []effect
	switch {
	case hasMethod(val, "ApplyToCRD") && target == markers.DescribesType && strings.HasSuffix(ptr, "/openAPIV3Schema"):
		effects = m.crdEffects(val)
	case hasMethod(val, "ApplyToSchema"):
		// a type's marker lands on every node of that type: try it once per node shape
		key := trialKey{c.Slash, shapeKey(schema)}
		t, done := m.a.trials[key]
		if !done {
			t.base, t.trial = schemaTrial(val, schema)
			m.a.trials[key] = t
		}
		if t.trial != nil {
			effects = diffEffects(t.base, t.trial, schema, ptr)
		}
	}
	if parent != nil && target == markers.DescribesField {
		switch def.Name {
		case "required", "kubebuilder:validation:Required", "k8s:required":
			if req, ok := parent.schema["required"].([]any); ok {
				for i, r := range req {
					if r == parent.name {
						effects = append(effects, effect{Pointer: parent.ptr + "/required/" + strconv.Itoa(i), Keyword: "required"})
					}
				}
			}
		}
	}
	m.record(c, target, effects)
}

func hasMethod(v any, name string) bool {
	return v != nil && reflect.ValueOf(v).MethodByName(name).IsValid()
}

// callApply calls val.<method>(...) with target for the pointer argument of its type and a zero value for
// any other argument (the SchemaContext added in later versions). It reports whether the call succeeded.
func callApply(val any, method string, target any, extra ...any) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	fn := reflect.ValueOf(val).MethodByName(method)
	tv := reflect.ValueOf(target)
	args := make([]reflect.Value, fn.Type().NumIn())
	ei := 0
	for i := range args {
		in := fn.Type().In(i)
		switch {
		case in == tv.Type():
			args[i] = tv
		case in.Kind() == reflect.String && ei < len(extra):
			args[i] = reflect.ValueOf(extra[ei]).Convert(in)
			ei++
		case in.Kind() == reflect.Pointer:
			args[i] = reflect.New(in.Elem())
		default:
			args[i] = reflect.Zero(in)
		}
	}
	outs := fn.Call(args)
	if len(outs) > 0 {
		if err, isErr := outs[len(outs)-1].Interface().(error); isErr && err != nil {
			return false
		}
	}
	return true
}

type parsedMarker struct {
	val any
	err error
}

type trialKey struct {
	comment token.Pos
	shape   string
}

type trialResult struct{ base, trial map[string]any }

// shapeKey names what of a node a schema marker's trial depends on.
func shapeKey(final map[string]any) string {
	shape := map[string]any{}
	for _, k := range []string{"type", "format", "x-kubernetes-int-or-string", "nullable", "x-kubernetes-list-type", "x-kubernetes-map-type"} {
		shape[k] = final[k]
	}
	if items, ok := final["items"].(map[string]any); ok {
		shape["items"] = []any{items["type"], items["format"]}
	}
	b, _ := json.Marshal(shape)
	return string(b)
}

// schemaTrial applies a schema marker to the node's bare shape (type, format, items' type): the bare shape
// before and after; diffEffects then reads off what it added, located in the generated node.
func schemaTrial(val any, final map[string]any) (map[string]any, map[string]any) {
	base := map[string]any{}
	for _, k := range []string{"type", "format", "x-kubernetes-int-or-string", "nullable"} {
		if v, ok := final[k]; ok {
			base[k] = v
		}
	}
	if items, ok := final["items"].(map[string]any); ok {
		ib := map[string]any{}
		for _, k := range []string{"type", "format"} {
			if v, ok := items[k]; ok {
				ib[k] = v
			}
		}
		base["items"] = ib
	}
	var props apiext.JSONSchemaProps
	var baseNorm map[string]any
	if !roundTrip(base, &props) || !roundTrip(&props, &baseNorm) {
		return nil, nil
	}
	if !callApply(val, "ApplyToSchema", &props) {
		// some markers need their neighbours' work first (listMapKey needs listType=map)
		for _, k := range []string{"x-kubernetes-list-type", "x-kubernetes-map-type"} {
			if v, ok := final[k]; ok {
				base[k] = v
			}
		}
		props, baseNorm = apiext.JSONSchemaProps{}, nil
		if !roundTrip(base, &props) || !roundTrip(&props, &baseNorm) || !callApply(val, "ApplyToSchema", &props) {
			return nil, nil
		}
	}
	var trial map[string]any
	if !roundTrip(&props, &trial) {
		return nil, nil
	}
	return baseNorm, trial
}

// crdEffects applies a CRD-level marker (resource, printcolumn, subresource, ...) to the CRD's bare shape.
func (m *mapper) crdEffects(val any) []effect {
	fn := reflect.ValueOf(val).MethodByName("ApplyToCRD")
	wholeCRD := false
	for i := 0; i < fn.Type().NumIn(); i++ {
		if fn.Type().In(i) == reflect.TypeOf(&apiext.CustomResourceDefinition{}) {
			wholeCRD = true
		}
	}
	spec, _ := m.crd.CRD["spec"].(map[string]any)
	bareSpec := map[string]any{}
	// the bare shape leaves out what CRD markers set (scope, short names, categories, plural, singular)
	bareSpec["group"] = spec["group"]
	bareSpec["names"] = map[string]any{"kind": dig(spec, "names", "kind"), "listKind": dig(spec, "names", "listKind")}
	var versions []any
	if vs, ok := spec["versions"].([]any); ok {
		for _, v := range vs {
			vm, _ := v.(map[string]any)
			versions = append(versions, map[string]any{"name": vm["name"], "served": vm["served"], "storage": vm["storage"]})
		}
	}
	bareSpec["versions"] = versions
	var base, trial map[string]any
	if wholeCRD {
		var obj apiext.CustomResourceDefinition
		bare := map[string]any{"metadata": map[string]any{"name": dig(m.crd.CRD, "metadata", "name")}, "spec": bareSpec}
		if !roundTrip(bare, &obj) || !roundTrip(&obj, &base) || !callApply(val, "ApplyToCRD", &obj, m.version) {
			return nil
		}
		roundTrip(&obj, &trial)
		return diffEffects(base, trial, m.crd.CRD, "")
	}
	var obj apiext.CustomResourceDefinitionSpec
	if !roundTrip(bareSpec, &obj) || !roundTrip(&obj, &base) || !callApply(val, "ApplyToCRD", &obj, m.version) {
		return nil
	}
	roundTrip(&obj, &trial)
	return diffEffects(base, trial, spec, "/spec")
}

func roundTrip(in, out any) bool {
	b, err := json.Marshal(in)
	if err != nil {
		return false
	}
	return json.Unmarshal(b, out) == nil
}

// diffEffects lists, as pointers into final, the values trial has that base does not.
func diffEffects(base, trial map[string]any, final map[string]any, ptr string) []effect {
	var out []effect
	keys := make([]string, 0, len(trial))
	for k := range trial {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		tv := trial[k]
		bv, inBase := base[k]
		if inBase && reflect.DeepEqual(bv, tv) {
			continue
		}
		fv, inFinal := final[k]
		if !inFinal {
			continue
		}
		if m, isMap := tv.(map[string]any); isMap && len(m) == 0 && bv == nil {
			continue // an empty holder the marker made on the way (printcolumn's subresources)
		}
		p := ptr + "/" + escapePointer(k)
		switch t := tv.(type) {
		case map[string]any:
			if bm, ok := bv.(map[string]any); ok {
				if fm, ok := fv.(map[string]any); ok {
					out = append(out, diffEffects(bm, t, fm, p)...)
					continue
				}
			}
		case []any:
			ba, _ := bv.([]any)
			fa, _ := fv.([]any)
			if len(ba) == len(t) && len(fa) == len(t) {
				for i := range t {
					bm, ok1 := ba[i].(map[string]any)
					tm, ok2 := t[i].(map[string]any)
					fm, ok3 := fa[i].(map[string]any)
					if ok1 && ok2 && ok3 && !reflect.DeepEqual(bm, tm) {
						out = append(out, diffEffects(bm, tm, fm, p+"/"+strconv.Itoa(i))...)
					}
				}
				continue
			}
			if len(t) > len(ba) {
				found := false
				for _, e := range t[len(ba):] {
					for j, f := range fa {
						if reflect.DeepEqual(e, f) {
							out = append(out, effect{Pointer: p + "/" + strconv.Itoa(j), Keyword: k})
							found = true
							break
						}
					}
				}
				if found {
					continue
				}
			}
		}
		out = append(out, effect{Pointer: p, Keyword: k})
	}
	return out
}
