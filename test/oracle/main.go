// Command oracle answers conformance cases (../../../shared/conformance/FORMAT.md) with the Kubernetes
// API server's own Go code (k8s.io/apiextensions-apiserver, k8s.io/apiserver), so that the corpus and the
// TypeScript engine can be checked against the real thing. Test-only: never shipped.
//
// Usage: oracle [--shared DIR] [FILE.jsonl ...]   (no files: cases are read from stdin)
//
// Output: one JSON line per case: {"id": ..., "errors": [...]} | {"id", "object"} | {"id", "value"} |
// {"id", "error"}, the same shape as the case's `expect`; an error's `detail` is the full message
// (Go's field.Error.Error()). A case the oracle cannot run gets {"id", "oracleError": "..."}.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"k8s.io/klog/v2"
)

// testCase is a conformance case; the instance fields are kept raw so that they can be decoded as
// Kubernetes decodes request bodies (integers as int64, fractions as float64).
type testCase struct {
	ID             string                     `json:"id"`
	Op             string                     `json:"op"`
	Schema         json.RawMessage            `json:"schema"`
	CRD            json.RawMessage            `json:"crd"`
	CRDFile        string                     `json:"crdFile"`
	OldCRD         json.RawMessage            `json:"oldCrd"`
	Version        string                     `json:"version"`
	Object         json.RawMessage            `json:"object"`
	OldObject      json.RawMessage            `json:"oldObject"`
	IsResourceRoot *bool                      `json:"isResourceRoot"`
	Expr           string                     `json:"expr"`
	Vars           map[string]json.RawMessage `json:"vars"`
	Expect         map[string]json.RawMessage `json:"expect"`
	// CompatibilityVersion (project extension, cel-compile): the base environment's compatibility
	// version ("1.29") instead of DefaultCompatibilityVersion, as a server with --min-compatibility-version.
	CompatibilityVersion string `json:"compatibilityVersion"`
}

func (c *testCase) resourceRoot() bool { return c.IsResourceRoot == nil || *c.IsResourceRoot }

// answer is what the oracle prints for one case.
type answer struct {
	ID          string       `json:"id"`
	Errors      *[]errorJSON `json:"errors,omitempty"`
	Object      *rawValue    `json:"object,omitempty"`
	Value       *rawValue    `json:"value,omitempty"`
	Error       *string      `json:"error,omitempty"`
	Rejected    string       `json:"rejected,omitempty"`
	OracleError string       `json:"oracleError,omitempty"`
}

type errorJSON struct {
	Type   string `json:"type"`
	Field  string `json:"field"`
	Detail string `json:"detail"`
}

func main() {
	shared := flag.String("shared", "", "the shared/ folder that crdFile paths are relative to")
	flag.Parse()
	klog.SetOutput(io.Discard)
	klog.LogToStderr(false)

	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	run := func(r io.Reader) error {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if line == "" {
				continue
			}
			a := answerLine([]byte(line), *shared)
			b, err := json.Marshal(a)
			if err != nil {
				b, _ = json.Marshal(answer{ID: a.ID, OracleError: "encoding answer: " + err.Error()})
			}
			out.Write(b)
			out.WriteByte('\n')
			out.Flush()
		}
		return sc.Err()
	}
	if flag.NArg() == 0 {
		if err := run(os.Stdin); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	for _, f := range flag.Args() {
		fh, err := os.Open(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		err = run(fh)
		fh.Close()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
}

// answerLine runs one case, turning panics of the Kubernetes code into an oracleError.
func answerLine(line []byte, shared string) (a answer) {
	var c testCase
	if err := json.Unmarshal(line, &c); err != nil {
		return answer{OracleError: "parsing case: " + err.Error()}
	}
	a.ID = c.ID
	defer func() {
		if r := recover(); r != nil {
			a = answer{ID: c.ID, OracleError: fmt.Sprintf("panic: %v\n%s", r, debug.Stack())}
		}
	}()
	if c.CRDFile != "" && len(c.CRD) == 0 {
		raw, err := loadCRDFile(filepath.Join(shared, c.CRDFile))
		if err != nil {
			return answer{ID: c.ID, OracleError: err.Error()}
		}
		c.CRD = raw
	}
	res, err := runOp(&c)
	if err != nil {
		return answer{ID: c.ID, OracleError: err.Error()}
	}
	res.ID = c.ID
	return res
}
