package main

// Which marker comments belong to which declaration. controller-tools' markers.Collector answers this but
// keeps only the parsed values, not where the comments are; the association below follows its rules
// (pkg/markers/collect.go of controller-tools, Apache-2.0, unchanged from v0.17 to v0.23) step for step, so
// a marker is placed on the node controller-gen places it on. checkSourceMap (published_test.go) holds the two
// together on the test fixture module and on real API packages.

import (
	"go/ast"
	"go/token"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/loader"
	"sigs.k8s.io/controller-tools/pkg/markers"
)

type markerComment struct {
	*ast.Comment
	fromGodoc bool
}

// text is the marker as controller-tools passes it to Registry.Lookup and Definition.Parse.
func (c markerComment) text() string { return strings.TrimSpace(c.Comment.Text[2:]) }

type associations struct {
	w        *workspace
	reg      *markers.Registry
	byPkg    map[*loader.Package]map[ast.Node][]markerComment
	fields   map[*loader.Package]map[token.Pos]*ast.Field
	specs    map[*loader.Package]map[token.Pos]*ast.TypeSpec
	fileFor  map[*loader.Package]map[ast.Node]*ast.File
	fieldPkg map[*ast.Field]*loader.Package
	parsed   map[token.Pos]parsedMarker // each marker parsed once per request
	trials   map[trialKey]trialResult   // each schema marker tried once per node shape
}

func newAssociations(w *workspace, reg *markers.Registry) *associations {
	return &associations{w: w, reg: reg, byPkg: map[*loader.Package]map[ast.Node][]markerComment{},
		fields: map[*loader.Package]map[token.Pos]*ast.Field{}, specs: map[*loader.Package]map[token.Pos]*ast.TypeSpec{},
		fileFor: map[*loader.Package]map[ast.Node]*ast.File{}, fieldPkg: map[*ast.Field]*loader.Package{},
		parsed: map[token.Pos]parsedMarker{}, trials: map[trialKey]trialResult{}}
}

// of returns the marker comments of every node (*ast.File for package level, *ast.TypeSpec, *ast.Field).
func (a *associations) of(pkg *loader.Package) map[ast.Node][]markerComment {
	if m, ok := a.byPkg[pkg]; ok {
		return m
	}
	pkg.NeedSyntax()
	out := map[ast.Node][]markerComment{}
	fields := map[token.Pos]*ast.Field{}
	specs := map[token.Pos]*ast.TypeSpec{}
	fileFor := map[ast.Node]*ast.File{}
	for _, file := range pkg.Syntax {
		for node, ms := range a.associateFile(file) {
			out[node] = append(out[node], ms...)
			fileFor[node] = file
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch t := n.(type) {
			case *ast.TypeSpec:
				specs[t.Name.Pos()] = t
			case *ast.Field:
				a.fieldPkg[t] = pkg
				for _, name := range t.Names {
					fields[name.Pos()] = t
				}
				if len(t.Names) == 0 {
					ast.Inspect(t.Type, func(x ast.Node) bool {
						if id, ok := x.(*ast.Ident); ok {
							fields[id.Pos()] = t
						}
						return true
					})
				}
			case *ast.FuncDecl:
				return false
			}
			return true
		})
	}
	a.byPkg[pkg], a.fields[pkg], a.specs[pkg], a.fileFor[pkg] = out, fields, specs, fileFor
	return out
}

func (a *associations) associateFile(file *ast.File) map[ast.Node][]markerComment {
	v := markerSubVisitor{collectPackageLevel: true, markerVisitor: &markerVisitor{nodeMarkers: map[ast.Node][]markerComment{}, allComments: file.Comments}}
	ast.Walk(v, file)
	v.pkgMarkers = append(v.pkgMarkers, v.markersBetween(false, v.commentInd, len(v.allComments))...)
	for node, ms := range v.nodeMarkers {
		if _, isType := node.(*ast.TypeSpec); !isType {
			continue
		}
		end := 0
		for _, m := range ms {
			if m.fromGodoc || a.reg.Lookup(m.text(), markers.DescribesType) != nil || a.reg.Lookup(m.text(), markers.DescribesPackage) == nil {
				ms[end] = m
				end++
				continue
			}
			v.pkgMarkers = append(v.pkgMarkers, m)
		}
		v.nodeMarkers[node] = ms[:end]
	}
	v.nodeMarkers[file] = v.pkgMarkers
	return v.nodeMarkers
}

type markerVisitor struct {
	allComments          []*ast.CommentGroup
	commentInd           int
	declComments         []markerComment
	lastLineCommentGroup *ast.CommentGroup
	pkgMarkers           []markerComment
	nodeMarkers          map[ast.Node][]markerComment
}

func isMarkerComment(comment string) bool {
	if len(comment) < 2 || comment[0:2] != "//" {
		return false
	}
	stripped := strings.TrimSpace(comment[2:])
	return len(stripped) >= 1 && stripped[0] == '+'
}

func (v *markerVisitor) markersBetween(fromGodoc bool, start, end int) []markerComment {
	if start < 0 || end < 0 {
		return nil
	}
	var res []markerComment
	for i := start; i < end; i++ {
		for _, c := range v.allComments[i].List {
			if isMarkerComment(c.Text) {
				res = append(res, markerComment{Comment: c, fromGodoc: fromGodoc})
			}
		}
	}
	return res
}

type markerSubVisitor struct {
	*markerVisitor
	node                ast.Node
	collectPackageLevel bool
}

func (v markerSubVisitor) Visit(node ast.Node) ast.Visitor {
	if node == nil {
		if !v.collectPackageLevel && v.commentInd < len(v.allComments) {
			last := v.commentInd
			next := v.allComments[last]
			for next.Pos() < v.node.End() {
				last++
				if last >= len(v.allComments) {
					break
				}
				next = v.allComments[last]
			}
			v.commentInd = last
		}
		return nil
	}
	if v.lastLineCommentGroup != nil && v.commentInd < len(v.allComments) && v.lastLineCommentGroup.Pos() == v.allComments[v.commentInd].Pos() {
		v.commentInd++
	}
	var markerBlock, docBlock []markerComment
	last := v.commentInd
	if v.commentInd < len(v.allComments) {
		next := v.allComments[last]
		for next.Pos() < node.Pos() {
			last++
			if last >= len(v.allComments) {
				break
			}
			next = v.allComments[last]
		}
		last--
		var docGroup *ast.CommentGroup
		docGroup, v.lastLineCommentGroup = associatedCommentsFor(node)
		markerInd := last
		if docGroup != nil && markerInd >= 0 && v.allComments[markerInd].Pos() == docGroup.Pos() {
			markerInd--
		}
		if markerInd >= v.commentInd {
			if v.collectPackageLevel {
				v.pkgMarkers = append(v.pkgMarkers, v.markersBetween(false, v.commentInd, markerInd)...)
			}
			markerBlock = v.markersBetween(false, markerInd, markerInd+1)
			docBlock = v.markersBetween(true, markerInd+1, last+1)
		} else {
			docBlock = v.markersBetween(true, markerInd+1, last+1)
		}
	}
	res := markerSubVisitor{markerVisitor: v.markerVisitor, node: node}
	switch t := node.(type) {
	case *ast.GenDecl:
		if t.Lparen != token.NoPos || t.Tok != token.TYPE {
			v.pkgMarkers = append(v.pkgMarkers, markerBlock...)
			break
		}
		v.declComments = append(v.declComments, markerBlock...)
		v.declComments = append(v.declComments, docBlock...)
	case *ast.TypeSpec:
		v.nodeMarkers[node] = append(v.nodeMarkers[node], v.declComments...)
		v.nodeMarkers[node] = append(v.nodeMarkers[node], markerBlock...)
		v.nodeMarkers[node] = append(v.nodeMarkers[node], docBlock...)
		v.declComments = nil
		v.collectPackageLevel = false
	case *ast.Field:
		v.nodeMarkers[node] = append(v.nodeMarkers[node], markerBlock...)
		v.nodeMarkers[node] = append(v.nodeMarkers[node], docBlock...)
	case *ast.File:
		v.pkgMarkers = append(v.pkgMarkers, markerBlock...)
		v.pkgMarkers = append(v.pkgMarkers, docBlock...)
		res.collectPackageLevel = true
	default:
		if v.collectPackageLevel {
			v.pkgMarkers = append(v.pkgMarkers, markerBlock...)
		}
	}
	v.commentInd = last + 1
	return res
}

func associatedCommentsFor(node ast.Node) (doc *ast.CommentGroup, lastLine *ast.CommentGroup) {
	switch t := node.(type) {
	case *ast.Field:
		return t.Doc, t.Comment
	case *ast.File:
		return t.Doc, nil
	case *ast.FuncDecl:
		return t.Doc, nil
	case *ast.GenDecl:
		return t.Doc, nil
	case *ast.ImportSpec:
		return t.Doc, t.Comment
	case *ast.TypeSpec:
		return t.Doc, t.Comment
	case *ast.ValueSpec:
		return t.Doc, t.Comment
	}
	return nil, nil
}

func targetOf(node ast.Node) markers.TargetType {
	switch node.(type) {
	case *ast.File:
		return markers.DescribesPackage
	case *ast.Field:
		return markers.DescribesField
	}
	return markers.DescribesType
}
