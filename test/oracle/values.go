package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"

	utiljson "k8s.io/apimachinery/pkg/util/json"
	"go.yaml.in/yaml/v3"
)

// decodeInstance decodes a JSON instance as the API server decodes request bodies into unstructured
// objects: a number without fraction or exponent that fits is int64, anything else float64.
func decodeInstance(raw json.RawMessage) (interface{}, error) {
	if len(raw) == 0 {
		return nil, nil
	}
	var v interface{}
	if err := utiljson.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	return v, nil
}

// rawValue is JSON text produced by encodeValue, so that float64 values with integral values keep
// their `.0` (FORMAT.md "Values": a number with a fraction is a double).
type rawValue []byte

func (r rawValue) MarshalJSON() ([]byte, error) { return r, nil }

func encodeValue(v interface{}) (rawValue, error) {
	var b bytes.Buffer
	if err := writeValue(&b, v); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func writeValue(b *bytes.Buffer, v interface{}) error {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		if x {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case string:
		s, _ := json.Marshal(x)
		b.Write(s)
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case int:
		b.WriteString(strconv.Itoa(x))
	case int32:
		b.WriteString(strconv.FormatInt(int64(x), 10))
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("non-finite number %v in object", x)
		}
		b.WriteString(formatFloat(x))
	case json.Number:
		b.WriteString(string(x))
	case map[string]interface{}:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			s, _ := json.Marshal(k)
			b.Write(s)
			b.WriteByte(':')
			if err := writeValue(b, x[k]); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	case []interface{}:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteByte(',')
			}
			if err := writeValue(b, e); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case rawValue:
		b.Write(x)
	default:
		s, err := json.Marshal(x)
		if err != nil {
			return err
		}
		b.Write(s)
	}
	return nil
}

// formatFloat prints a float64 so that a lossless JSON reader sees a double: integral values get `.0`.
func formatFloat(x float64) string {
	s := strconv.FormatFloat(x, 'g', -1, 64)
	if bytes.ContainsAny([]byte(s), ".eE") {
		return s
	}
	return s + ".0"
}

var crdFileCache = map[string]json.RawMessage{}

// loadCRDFile reads the CustomResourceDefinition document of a published CRD YAML file as JSON
// (FORMAT.md "Extension: crdFile": YAML 1.2, so yaml.v3, where only true/false are booleans).
func loadCRDFile(path string) (json.RawMessage, error) {
	if raw, ok := crdFileCache[path]; ok {
		return raw, nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var doc interface{}
		if err := dec.Decode(&doc); err != nil {
			if err == io.EOF {
				break
			}
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		m, ok := doc.(map[string]interface{})
		if !ok || m["kind"] != "CustomResourceDefinition" {
			continue
		}
		var b bytes.Buffer
		if err := writeValue(&b, m); err != nil {
			return nil, fmt.Errorf("%s: %v", path, err)
		}
		crdFileCache[path] = b.Bytes()
		return b.Bytes(), nil
	}
	return nil, fmt.Errorf("%s: no CustomResourceDefinition document", path)
}
