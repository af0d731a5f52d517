package main

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"time"

	celgo "github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apivalidation "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model"
	"k8s.io/apiserver/pkg/cel/common"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/environment"
	"k8s.io/apimachinery/pkg/util/version"
)

// opCELCompile compiles every rule of the schema as CRD validation does on create
// (ValidateCustomResourceDefinitionOpenAPISchema, the x-kubernetes-validations part): type info from
// the CEL schema context, cel.Compile in the base env at the default compatibility version with the
// NewExpressions env, and the same mapping of compilation results to errors (rule, messageExpression).
// Paths are relative to the schema root. Only compile/type-check errors (FORMAT.md): the CRD checks
// made around compilation (estimated cost, oldSelf on uncorrelatable parts, optionalOldSelf without
// oldSelf, schema errors that suppress compilation) belong to the `crd` op.
func opCELCompile(c *testCase) (answer, error) {
	internal, err := internalSchema(c.Schema)
	if err != nil {
		return answer{}, err
	}
	compat := environment.DefaultCompatibilityVersion()
	if c.CompatibilityVersion != "" {
		v, err := version.ParseMajorMinor(c.CompatibilityVersion)
		if err != nil {
			return answer{}, err
		}
		compat = v
	}
	envSet := environment.MustBaseEnvSet(compat)
	var errs field.ErrorList
	var walk func(s *apiextensions.JSONSchemaProps, path *field.Path, ctx *apivalidation.CELSchemaContext)
	walk = func(s *apiextensions.JSONSchemaProps, path *field.Path, ctx *apivalidation.CELSchemaContext) {
		if s == nil {
			return
		}
		if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
			walk(s.AdditionalProperties.Schema, path.Child("additionalProperties"), ctx.ChildAdditionalPropertiesContext(s.AdditionalProperties.Schema))
		}
		names := make([]string, 0, len(s.Properties))
		for k := range s.Properties {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			p := s.Properties[k]
			walk(&p, path.Child("properties").Key(k), ctx.ChildPropertyContext(&p, k))
		}
		if s.Items != nil && s.Items.Schema != nil {
			walk(s.Items.Schema, path.Child("items"), ctx.ChildItemsContext(s.Items.Schema))
		}
		if len(s.XValidations) == 0 {
			return
		}
		rulePath := func(i int, f string) *field.Path {
			return path.Child("x-kubernetes-validations").Index(i).Child(f)
		}
		typeInfo, err := ctx.TypeInfo()
		if err != nil || typeInfo == nil {
			errs = append(errs, field.InternalError(path.Child("x-kubernetes-validations"), fmt.Errorf("internal error: failed to construct type information for x-kubernetes-validations rules: %v", err)))
			return
		}
		results, err := cel.Compile(typeInfo.Schema, typeInfo.DeclType, celconfig.PerCallLimit, envSet, cel.NewExpressionsEnvLoader())
		if err != nil {
			errs = append(errs, field.InternalError(path.Child("x-kubernetes-validations"), err))
			return
		}
		for i, cr := range results {
			if cr.Error != nil {
				if cr.Error.Type == apiservercel.ErrorTypeRequired {
					errs = append(errs, field.Required(rulePath(i, "rule"), cr.Error.Detail))
				} else {
					errs = append(errs, field.Invalid(rulePath(i, "rule"), s.XValidations[i], cr.Error.Detail))
				}
			}
			if cr.MessageExpressionError != nil {
				errs = append(errs, field.Invalid(rulePath(i, "messageExpression"), s.XValidations[i], cr.MessageExpressionError.Detail))
			}
		}
	}
	walk(internal, nil, apivalidation.RootCELContext(internal))
	return errorsAnswer(errs), nil
}

// opCELEval evaluates an expression in the Kubernetes base CEL environment (MustBaseEnvSet at the
// default compatibility version; the StoredExpressions env, i.e. every library the binary has, so
// that functions newer than the compatibility version can be evaluated), with each var declared dyn.
// Programs get the per-call cost limit the API server sets.
func opCELEval(c *testCase) (answer, error) {
	envSet := environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion())
	env := envSet.StoredExpressionsEnv()
	activation := map[string]interface{}{}
	var opts []celgo.EnvOption
	names := make([]string, 0, len(c.Vars))
	for k := range c.Vars {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		v, err := decodeInstance(c.Vars[k])
		if err != nil {
			return answer{}, err
		}
		nv, err := specialValues(v)
		if err != nil {
			return answer{}, err
		}
		activation[k] = nv
		opts = append(opts, celgo.Variable(k, celgo.DynType))
	}
	if len(opts) > 0 {
		var err error
		if env, err = env.Extend(opts...); err != nil {
			return answer{}, err
		}
	}
	fail := func(msg string) (answer, error) { return answer{Error: &msg}, nil }
	ast, iss := env.Compile(c.Expr)
	if iss != nil && iss.Err() != nil {
		return fail("compilation failed: " + iss.Err().Error())
	}
	prg, err := env.Program(ast, celgo.CostLimit(celconfig.PerCallLimit), celgo.InterruptCheckFrequency(celconfig.CheckFrequency))
	if err != nil {
		return fail("program construction failed: " + err.Error())
	}
	out, _, err := prg.Eval(activation)
	if err != nil {
		return fail(err.Error())
	}
	enc, err := celValueJSON(out)
	if err != nil {
		return answer{}, err
	}
	raw, err := encodeValue(enc)
	if err != nil {
		return answer{}, err
	}
	return answer{Value: &raw}, nil
}

// specialValues turns FORMAT.md's one-key objects ($bytes, $uint, ...) into the Go values cel-go adapts.
func specialValues(v interface{}) (interface{}, error) {
	switch x := v.(type) {
	case []interface{}:
		for i := range x {
			nv, err := specialValues(x[i])
			if err != nil {
				return nil, err
			}
			x[i] = nv
		}
		return x, nil
	case map[string]interface{}:
		if len(x) == 1 {
			for k, raw := range x {
				s, isString := raw.(string)
				if !isString {
					break
				}
				switch k {
				case "$bytes":
					return base64.StdEncoding.DecodeString(s)
				case "$uint":
					return strconv.ParseUint(s, 10, 64)
				case "$double":
					return strconv.ParseFloat(s, 64)
				case "$timestamp":
					t, err := time.Parse(time.RFC3339Nano, s)
					if err != nil {
						return nil, err
					}
					return types.Timestamp{Time: t}, nil
				case "$duration":
					d, err := time.ParseDuration(s)
					if err != nil {
						return nil, err
					}
					return types.Duration{Duration: d}, nil
				case "$type":
					return nil, fmt.Errorf("$type vars are not supported by the oracle")
				}
			}
		}
		for k := range x {
			nv, err := specialValues(x[k])
			if err != nil {
				return nil, err
			}
			x[k] = nv
		}
		return x, nil
	}
	return v, nil
}

// celValueJSON converts a CEL result into FORMAT.md's JSON form of values.
func celValueJSON(v ref.Val) (interface{}, error) {
	switch x := v.(type) {
	case types.Int:
		return int64(x), nil
	case types.Uint:
		return map[string]interface{}{"$uint": strconv.FormatUint(uint64(x), 10)}, nil
	case types.Double:
		f := float64(x)
		if math.IsNaN(f) {
			return map[string]interface{}{"$double": "NaN"}, nil
		}
		if math.IsInf(f, 1) {
			return map[string]interface{}{"$double": "Infinity"}, nil
		}
		if math.IsInf(f, -1) {
			return map[string]interface{}{"$double": "-Infinity"}, nil
		}
		return f, nil
	case types.String:
		return string(x), nil
	case types.Bool:
		return bool(x), nil
	case types.Null:
		return nil, nil
	case types.Bytes:
		return map[string]interface{}{"$bytes": base64.StdEncoding.EncodeToString([]byte(x))}, nil
	case types.Timestamp:
		return map[string]interface{}{"$timestamp": x.Time.UTC().Format(time.RFC3339Nano)}, nil
	case types.Duration:
		return map[string]interface{}{"$duration": x.Duration.String()}, nil
	case *types.Type:
		return map[string]interface{}{"$type": x.TypeName()}, nil
	}
	if l, ok := v.(traits.Lister); ok {
		out := []interface{}{}
		it := l.Iterator()
		for it.HasNext() == types.True {
			e, err := celValueJSON(it.Next())
			if err != nil {
				return nil, err
			}
			out = append(out, e)
		}
		return out, nil
	}
	if m, ok := v.(traits.Mapper); ok {
		out := map[string]interface{}{}
		it := m.Iterator()
		for it.HasNext() == types.True {
			k := it.Next()
			val, _ := m.Find(k)
			e, err := celValueJSON(val)
			if err != nil {
				return nil, err
			}
			ks, ok := k.Value().(string)
			if !ok {
				b, _ := json.Marshal(k.Value())
				ks = string(b)
			}
			out[ks] = e
		}
		return out, nil
	}
	return map[string]interface{}{"$opaque": fmt.Sprintf("%s(%v)", v.Type().TypeName(), v.Value())}, nil
}

// opCELCost answers what the engine's estimator and runtime cost tracker must match: the rule `expr`
// compiled on `schema` (self; CR validation's StoredExpressions env at the default compatibility
// version, the per-call limit, the Kubernetes cost estimator) and, when `object` is given, evaluated
// on it. The answer's value is {"estimatedMin", "estimatedMax", "cost", "result" | "error"}; a
// compile error is the answer's error.
func opCELCost(c *testCase) (answer, error) {
	_, s, err := structural(c.Schema)
	if err != nil {
		return answer{}, err
	}
	root := c.resourceRoot()
	declType := model.SchemaDeclType(s, root)
	if declType == nil {
		return answer{}, fmt.Errorf("schema has no CEL type")
	}
	s.ValidationExtensions.XValidations = apiextensionsv1.ValidationRules{{Rule: c.Expr}}
	envSet := environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion())
	results, err := cel.Compile(s, declType, celconfig.PerCallLimit, envSet, cel.StoredExpressionsEnvLoader())
	if err != nil {
		return answer{}, err
	}
	r := results[0]
	if r.Error != nil {
		msg := r.Error.Detail
		return answer{Error: &msg}, nil
	}
	out := map[string]interface{}{"estimatedMax": r.MaxCost}
	if len(c.Object) > 0 {
		obj, err := decodeInstance(c.Object)
		if err != nil {
			return answer{}, err
		}
		var sts common.Schema = &model.Structural{Structural: s}
		if root {
			sts = &model.Structural{Structural: model.WithTypeAndObjectMeta(s)}
		}
		val, det, evalErr := r.Program.Eval(map[string]interface{}{"self": common.UnstructuredToVal(obj, sts)})
		if det != nil && det.ActualCost() != nil {
			out["cost"] = *det.ActualCost()
		}
		if evalErr != nil {
			out["error"] = evalErr.Error()
		} else if enc, err := celValueJSON(val); err == nil {
			out["result"] = enc
		} else {
			out["error"] = "encoding result: " + err.Error()
		}
	}
	raw, err := encodeValue(out)
	if err != nil {
		return answer{}, err
	}
	return answer{Value: &raw}, nil
}
