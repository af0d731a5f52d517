// Command crdgen runs controller-tools' own CRD generator (what `controller-gen crd` runs) as a long-lived
// process for crd-yaml: JSON-lines requests on stdin, answers on stdout, packages kept loaded between
// requests, and a source map from every generated schema node and marker back to the Go source.
// PROTOCOL.md is the contract with the TypeScript client.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"runtime/pprof"
)

type request struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

type answer struct {
	ID     json.RawMessage `json:"id"`
	Result any             `json:"result,omitempty"`
	Error  *answerError    `json:"error,omitempty"`
}

type answerError struct {
	Message string `json:"message"`
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "-version" {
		fmt.Println(controllerToolsVersion())
		return
	}
	// generation allocates a lot and lives long: collect less often (memory is cheap next to latency)
	debug.SetGCPercent(400)
	// CRDGEN_CPUPROFILE=<file>: a CPU profile of the whole session, for `go tool pprof`
	if f := os.Getenv("CRDGEN_CPUPROFILE"); f != "" {
		if out, err := os.Create(f); err == nil {
			if pprof.StartCPUProfile(out) == nil {
				defer pprof.StopCPUProfile()
			}
		}
	}
	serve(os.Stdin, os.Stdout)
}

// serve answers requests one at a time, in order, until EOF or shutdown.
func serve(in io.Reader, out io.Writer) {
	reader := bufio.NewReaderSize(in, 1<<20)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	srv := newServer()
	for {
		line, err := reader.ReadBytes('\n')
		if len(line) > 0 && !isBlank(line) {
			var req request
			var ans answer
			if jerr := json.Unmarshal(line, &req); jerr != nil {
				ans = answer{ID: json.RawMessage("null"), Error: &answerError{Message: "request is not JSON: " + jerr.Error()}}
			} else {
				ans = srv.handle(req)
			}
			if ans.ID == nil {
				ans.ID = json.RawMessage("null")
			}
			if ans.Result == nil && ans.Error == nil {
				ans.Result = struct{}{}
			}
			if eerr := enc.Encode(ans); eerr != nil {
				fmt.Fprintln(os.Stderr, "crdgen: cannot write answer:", eerr)
				return
			}
			if req.Method == "shutdown" {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

func isBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return false
		}
	}
	return true
}

type server struct {
	workspaces map[string]*workspace
}

func newServer() *server { return &server{workspaces: map[string]*workspace{}} }

func (s *server) handle(req request) (ans answer) {
	ans.ID = req.ID
	defer func() {
		if r := recover(); r != nil {
			ans.Result = nil
			ans.Error = &answerError{Message: fmt.Sprintf("crdgen failed on this request: %v", r)}
		}
	}()
	fail := func(format string, args ...any) answer {
		ans.Error = &answerError{Message: fmt.Sprintf(format, args...)}
		return ans
	}
	switch req.Method {
	case "shutdown":
		ans.Result = struct{}{}
	case "markers":
		ans.Result = map[string]any{"controllerTools": controllerToolsVersion(), "markers": registryListing()}
	case "inspect", "generate":
		var p generateParams
		if len(req.Params) > 0 {
			if err := json.Unmarshal(req.Params, &p); err != nil {
				return fail("params of %s: %v", req.Method, err)
			}
		}
		if p.ModuleDir == "" || !filepath.IsAbs(p.ModuleDir) {
			return fail("%s needs params.moduleDir, an absolute directory", req.Method)
		}
		dir := filepath.Clean(p.ModuleDir)
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			return fail("moduleDir %s is not a directory", dir)
		}
		p.ModuleDir = dir
		if req.Method == "inspect" {
			opts := resolveOptions(dir, p.Packages, p.Options)
			ans.Result = map[string]any{"controllerTools": controllerToolsVersion(), "options": opts.report()}
			return ans
		}
		ws := s.workspaces[dir]
		if ws == nil {
			ws = newWorkspace(dir)
			s.workspaces[dir] = ws
		}
		ans.Result = ws.generate(p)
	default:
		return fail("unknown method %q (known: generate, inspect, markers, shutdown)", req.Method)
	}
	return ans
}
