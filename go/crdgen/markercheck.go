package main

// Markers controller-gen does not apply: unknown names (skipped without a word), markers on the wrong kind
// of declaration (skipped too), and arguments it cannot read (an error that stops controller-gen). The
// names come from the registry every controller-gen generator registers into, never from a list of ours.

import (
	"fmt"
	"go/ast"
	"sort"
	"strings"

	"sigs.k8s.io/controller-tools/pkg/markers"
)

type markerFix struct {
	Span    span   `json:"span"`
	NewText string `json:"newText"`
}

type markerProblem struct {
	Span       span       `json:"span"`
	Text       string     `json:"text"`
	Name       string     `json:"name"`
	Severity   string     `json:"severity"`
	Reason     string     `json:"reason"`
	Message    string     `json:"message"`
	Suggestion string     `json:"suggestion,omitempty"`
	Fix        *markerFix `json:"fix,omitempty"`
}

// Marker families of other tools that share the kubebuilder prefix (kubebuilder's scaffolding anchors,
// the API reference generator's hints): not controller-gen's to know.
var otherToolPrefixes = []string{"kubebuilder:scaffold", "kubebuilder:docs-gen"}

func checkMarkers(w *workspace, a *associations) []*markerProblem {
	k := known()
	out := []*markerProblem{}
	for _, pkg := range w.local {
		for node, cs := range a.of(pkg) {
			target := targetOf(node)
			for _, c := range cs {
				if p := checkMarker(w, k, c, target); p != nil {
					out = append(out, p)
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Span.File != out[j].Span.File {
			return out[i].Span.File < out[j].Span.File
		}
		return out[i].Span.Offset < out[j].Span.Offset
	})
	return out
}

// markerNames splits a marker as controller-tools' splitMarker does: anon is everything before '=', name
// drops anon's last ':' segment when there is a '=' (the first argument of a struct-style marker).
func markerNames(text string) (name, anon string) {
	raw := strings.TrimPrefix(text, "+")
	anon, _, hasValue := strings.Cut(raw, "=")
	name = anon
	if hasValue {
		if i := strings.LastIndex(anon, ":"); i >= 0 {
			name = anon[:i]
		}
	}
	return name, anon
}

func checkMarker(w *workspace, k *knownMarkers, c markerComment, target markers.TargetType) *markerProblem {
	text := c.text()
	start, end := markerStart(c.Comment), markerEnd(c.Comment)
	prob := func(severity, reason, msg string) *markerProblem {
		name, anon := markerNames(text)
		if def := k.all.Lookup(text, target); def != nil {
			name = def.Name
		} else {
			name = anon
		}
		return &markerProblem{Span: w.spanIn(c.Comment, start, end), Text: c.Text[start:end], Name: name, Severity: severity, Reason: reason, Message: msg}
	}
	if def := k.all.Lookup(text, target); def != nil {
		_, err := def.Parse(text)
		if err == nil {
			return nil
		}
		severity := "warning" // another generator's marker: `controller-gen crd` does not read it
		if k.crd.Lookup(text, target) != nil {
			severity = "error"
		}
		msg := strings.TrimSpace(err.Error())
		if arg, ok := unknownArgument(msg); ok {
			p := prob(severity, "unknown-argument", fmt.Sprintf("Unknown argument %s of +%s: controller-gen stops on it", arg, def.Name))
			fields := make([]string, 0, len(def.Fields))
			for f := range def.Fields {
				if f != "" {
					fields = append(fields, f)
				}
			}
			if best, d := nearest(arg, fields); best != "" && acceptable(d, best) {
				p.Suggestion = best
				p.Message += fmt.Sprintf(" (did you mean %s?)", best)
				if i := argNameOffset(text, def.Name, arg); i >= 0 {
					p.Fix = &markerFix{Span: w.spanIn(c.Comment, start+i, start+i+len(arg)), NewText: best}
				}
			}
			return p
		}
		return prob(severity, "invalid-value", fmt.Sprintf("controller-gen cannot read +%s: %s", def.Name, msg))
	}
	if target == markers.DescribesType && !c.fromGodoc && k.all.Lookup(text, markers.DescribesPackage) != nil {
		return nil // a package marker in a free comment before a type: controller-gen moves it to the package
	}
	name, anon := markerNames(text)
	if !inFamily(anon, k) {
		return nil
	}
	for _, other := range []markers.TargetType{markers.DescribesPackage, markers.DescribesType, markers.DescribesField} {
		if other != target && k.all.Lookup(text, other) != nil {
			return prob("warning", "wrong-target", fmt.Sprintf("+%s is a %s marker: controller-gen ignores it on a %s", anon, targetName(other), targetName(target)))
		}
	}
	p := prob("warning", "unknown-marker", fmt.Sprintf("Unknown marker +%s: controller-gen ignores it", anon))
	var sameTarget, others []string
	for _, def := range k.all.AllDefinitions() {
		if def.Target == target {
			sameTarget = append(sameTarget, def.Name)
		} else {
			others = append(others, def.Name)
		}
	}
	type cand struct {
		text string
		at   int
	}
	var best string
	bestD, bestLen := 1<<30, 0
	for _, cd := range []cand{{anon, 1}, {name, 1}} {
		for _, pool := range [][]string{sameTarget, others} {
			if s, d := nearest(cd.text, pool); s != "" && d < bestD && acceptable(d, s) {
				best, bestD, bestLen = s, d, len(cd.text)
			}
		}
	}
	if best != "" {
		p.Suggestion = best
		p.Message += fmt.Sprintf(" (did you mean +%s?)", best)
		p.Fix = &markerFix{Span: w.spanIn(c.Comment, start+1, start+1+bestLen), NewText: best}
	}
	return p
}

// inFamily: the markers we speak for are controller-gen's: the kubebuilder: prefix (or a typo of it), and
// names one typo away from the crd generator's own unprefixed ones (listType, optional, ...).
func inFamily(anon string, k *knownMarkers) bool {
	lower := strings.ToLower(anon)
	if strings.HasPrefix(anon, "kubebuilder:") {
		for _, p := range otherToolPrefixes {
			if strings.HasPrefix(anon, p) {
				return false
			}
		}
		return true
	}
	if head, _, ok := strings.Cut(lower, ":"); ok {
		d := levenshtein(head, "kubebuilder")
		return d >= 1 && d <= 2
	}
	for _, def := range k.crd.AllDefinitions() {
		if strings.Contains(def.Name, ":") {
			continue
		}
		// one typo away (other generators' unprefixed markers, such as code-generator's +groupGoName,
		// are further than that from these)
		if d := levenshtein(lower, strings.ToLower(def.Name)); d == 1 {
			return true
		}
		if strings.EqualFold(anon, def.Name) && anon != def.Name {
			return true // only the case differs
		}
	}
	return false
}

func unknownArgument(msg string) (string, bool) {
	const key = "unknown argument \""
	i := strings.Index(msg, key)
	if i < 0 {
		return "", false
	}
	rest := msg[i+len(key):]
	j := strings.Index(rest, "\"")
	if j < 0 {
		return "", false
	}
	return rest[:j], true
}

// argNameOffset finds where argument arg is named in the marker text (after the marker's name).
func argNameOffset(text, defName, arg string) int {
	from := 1 + len(defName)
	if from >= len(text) {
		return -1
	}
	off := from + 1
	for _, part := range splitTopLevel(text[from+1:], ',') {
		if k, _, _ := strings.Cut(part, "="); strings.TrimSpace(k) == arg {
			return off + strings.Index(part, arg)
		}
		off += len(part) + 1
	}
	return -1
}

func acceptable(d int, s string) bool { return d <= 2 || d*5 <= len(s) }

// nearest is the candidate closest to s (case-insensitive edit distance; ties go to the first in order).
func nearest(s string, candidates []string) (string, int) {
	sort.Strings(candidates)
	best, bestD := "", 1<<30
	ls := strings.ToLower(s)
	for _, c := range candidates {
		if d := levenshtein(ls, strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	return best, bestD
}

// levenshtein is the optimal-string-alignment distance: insertions, deletions, substitutions and
// transpositions of neighbours (the typos people make) each cost one.
func levenshtein(a, b string) int {
	if a == b {
		return 0
	}
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

var _ ast.Node = (*ast.Comment)(nil)
