// Command yamlconv answers "what does kubectl make of this YAML?" with the code kubectl and the API
// server use: sigs.k8s.io/yaml (go-yaml v2 to interface{}, keys to strings, encoding/json), then the
// JSON decoding of k8s.io/apimachinery/pkg/util/json (int64 when integral and in range, else float64),
// twice, as kubectl decodes the converted JSON and sends it re-encoded. Test-only: never shipped.
//
// Input: JSON lines {"id": ..., "yaml": "...", "stream": false}. Without stream the text is one
// document (sigs.k8s.io/yaml.YAMLToJSON); with stream it is a file read as kubectl's StreamVisitor
// reads it (k8s.io/apimachinery/pkg/util/yaml.NewYAMLOrJSONDecoder; empty and null documents skipped;
// the first error ends the stream).
//
// Output: one JSON line per input: {"id", "docs": [value...], "error"?: "..."} where a value is typed so
// that nothing is lost in transit: null, true/false, "string", {"int": "123"}, {"float": "1.5e+300"},
// [values...], {"map": {"key": value}}.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"

	utiljson "k8s.io/apimachinery/pkg/util/json"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"
)

type request struct {
	ID     string `json:"id"`
	YAML   string `json:"yaml"`
	Stream bool   `json:"stream"`
}

type response struct {
	ID    string        `json:"id"`
	Docs  []interface{} `json:"docs"`
	Error string        `json:"error,omitempty"`
}

func main() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 256<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var req request
		var res response
		if err := json.Unmarshal(line, &req); err != nil {
			res.Error = "yamlconv: bad request: " + err.Error()
		} else {
			res = answer(req)
		}
		if res.Docs == nil {
			res.Docs = []interface{}{}
		}
		b, err := json.Marshal(res)
		if err != nil {
			b, _ = json.Marshal(response{ID: req.ID, Docs: []interface{}{}, Error: "yamlconv: encoding: " + err.Error()})
		}
		out.Write(b)
		out.WriteByte('\n')
		out.Flush()
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func answer(req request) (res response) {
	res.ID = req.ID
	defer func() {
		if r := recover(); r != nil {
			res.Error = fmt.Sprintf("yamlconv: panic: %v", r)
		}
	}()
	if !req.Stream {
		j, err := yaml.YAMLToJSON([]byte(req.YAML))
		if err != nil {
			res.Error = "error converting YAML to JSON: " + err.Error()
			return
		}
		v, err := kubectlValue(j)
		if err != nil {
			res.Error = err.Error()
			return
		}
		res.Docs = append(res.Docs, typed(v))
		return
	}
	// cli-runtime's StreamVisitor.
	d := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader([]byte(req.YAML)), 4096)
	for {
		ext := runtime.RawExtension{}
		if err := d.Decode(&ext); err != nil {
			if err != io.EOF {
				res.Error = err.Error()
			}
			return
		}
		raw := bytes.TrimSpace(ext.Raw)
		if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
			continue
		}
		v, err := kubectlValue(raw)
		if err != nil {
			res.Error = err.Error()
			return
		}
		res.Docs = append(res.Docs, typed(v))
	}
}

// kubectlValue decodes converted JSON as kubectl does, re-encodes it as kubectl sends it, and decodes
// that as the API server does.
func kubectlValue(j []byte) (interface{}, error) {
	var v interface{}
	if err := utiljson.Unmarshal(j, &v); err != nil {
		return nil, err
	}
	sent, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var w interface{}
	if err := utiljson.Unmarshal(sent, &w); err != nil {
		return nil, err
	}
	return w, nil
}

func typed(v interface{}) interface{} {
	switch x := v.(type) {
	case nil, bool, string:
		return x
	case int64:
		return map[string]string{"int": strconv.FormatInt(x, 10)}
	case float64:
		return map[string]string{"float": strconv.FormatFloat(x, 'g', -1, 64)}
	case []interface{}:
		out := make([]interface{}, len(x))
		for i, e := range x {
			out[i] = typed(e)
		}
		return out
	case map[string]interface{}:
		m := make(map[string]interface{}, len(x))
		for k, e := range x {
			m[k] = typed(e)
		}
		return map[string]interface{}{"map": m}
	default:
		return map[string]string{"unexpected": fmt.Sprintf("%T %v", v, v)}
	}
}
