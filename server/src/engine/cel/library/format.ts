/**
 * The Kubernetes format library (apiserver pkg/cel/library/format.go, 1.31): named formats and
 * their validators (apimachinery util/validation, shared with CRD and metadata validation).
 */
import { R, STRING_TRAVERSAL_COST_FACTOR, REGEX_STRING_LENGTH_COST_FACTOR } from '../cost/model';
import { k8sActualSize } from '../runtime/size';
import { parseRFC3339 } from '../runtime/time';
import { Optional, type OpaqueValue } from '../runtime/values';
import { isQualifiedName, isValidLabelValue, utilValidationChecks } from '../../objectmeta/names';
import { goURLParseRequestURI } from '../../json/gourl';
import { fn, type Library } from './decls';
import { regexCost, unitCost } from './cost';

// The DNS checks of apimachinery's util/validation (which format.go calls), shared with CRD validation.
const { isDNS1123Label: dns1123Label, isDNS1123Subdomain: dns1123Subdomain, isDNS1035Label: dns1035Label } = utilValidationChecks;

// qualifiedName and labelValue: util/validation's IsQualifiedName / IsValidLabelValue are content's
// IsLabelKey / IsLabelValue (lengths in bytes), shared with metadata validation.
const qualifiedName = isQualifiedName;
const labelValue = isValidLabelValue;

/** NameIsDNS*(name, prefix=true): a trailing '-' is allowed in a generateName prefix. */
function asPrefix(fn: (v: string) => string[]): (v: string) => string[] {
  return (v) => fn(v.endsWith('-') ? v.slice(0, -1) + 'a' : v);
}

export const VALIDATORS: Record<string, (v: string) => string[]> = {
  dns1123Label,
  dns1123Subdomain,
  dns1035Label,
  qualifiedName,
  dns1123LabelPrefix: asPrefix(dns1123Label),
  dns1123SubdomainPrefix: asPrefix(dns1123Subdomain),
  dns1035LabelPrefix: asPrefix(dns1035Label),
  labelValue,
  // url.ParseRequestURI alone, as the format library checks it.
  uri: (v) => {
    const r = goURLParseRequestURI(v);
    return r.error !== undefined ? [r.error] : [];
  },
  uuid: (v) => (/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(v) ? [] : ['does not match the UUID format']),
  byte: (v) => (/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(v) ? [] : ['invalid base64']),
  date: (v) => (/^\d{4}-\d{2}-\d{2}$/.test(v) && parseRFC3339(`${v}T00:00:00Z`) ? [] : ['invalid date']),
  datetime: (v) => (parseRFC3339(v) ? [] : ['invalid datetime']),
};

/** A named format validator value. */
export class NamedFormat implements OpaqueValue {
  readonly celTypeName = 'kubernetes.NamedFormat';
  constructor(readonly name: string) {}
  equals(o: OpaqueValue): boolean {
    return o instanceof NamedFormat && this.name === o.name;
  }
}

/** format.go's MaxRegexSize per named format (the runtime cost of validate()). */
const UUID_PATTERN = '(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$';
const DATETIME_PATTERN = '^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$';
const MAX_REGEX_SIZE: Record<string, number> = {
  dns1123Label: 30,
  dns1123Subdomain: 60,
  dns1035Label: 30,
  qualifiedName: 60,
  dns1123LabelPrefix: 30,
  dns1123SubdomainPrefix: 60,
  dns1035LabelPrefix: 30,
  labelValue: 40,
  uri: 1103,
  uuid: UUID_PATTERN.length,
  byte: 84,
  date: DATETIME_PATTERN.length,
  datetime: DATETIME_PATTERN.length,
};
const MAX_NAME_FORMAT_REGEX_SIZE = 128;

export const FORMAT: Library = {
  name: 'kubernetes.format',
  since: 31,
  types: ['kubernetes.NamedFormat'],
  functions: [
    ...Object.keys(VALIDATORS).map((name) => fn(`format.${name}`, `the ${name} format, for validate()`, [[`format_${name}`, `format.${name}(): Format`, () => new NamedFormat(name)]])),
    fn(
      'format.named',
      'the named format, if it exists',
      [['format_named', 'format.named(string): optional<Format>', (s: string) => (Object.hasOwn(VALIDATORS, s) ? Optional.of(new NamedFormat(s)) : Optional.none())]],
      unitCost,
    ),
    fn(
      'validate',
      'validates the string: none when valid, else the list of errors',
      [
        [
          'format_validate',
          'Format.validate(string): optional<list<string>>',
          (f: NamedFormat, s: string) => {
            const errs = VALIDATORS[f.name](s);
            return errs.length ? Optional.of(errs) : Optional.none();
          },
        ],
      ],
      {
        estimate: (ctx, _id, _t, args) =>
          args.length >= 1 ? { cost: R.factor(R.factor(ctx.sizeEstimate(args[0]), STRING_TRAVERSAL_COST_FACTOR), MAX_NAME_FORMAT_REGEX_SIZE * REGEX_STRING_LENGTH_COST_FACTOR) } : undefined,
        cost: (_id, args) => (args[0] instanceof NamedFormat ? regexCost(k8sActualSize(args[1]), MAX_REGEX_SIZE[args[0].name] ?? MAX_NAME_FORMAT_REGEX_SIZE) : undefined),
      },
    ),
  ],
};
