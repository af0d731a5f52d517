/**
 * Kubernetes format library (apiserver pkg/cel/library/format.go): named validators from
 * apimachinery's validation package, returning optional.none() when valid or the error list.
 */
import type { Environment } from '@marcbachmann/cel-js';
import { Optional } from '@marcbachmann/cel-js';
import { parseURL } from './urls';
import { parseRFC3339 } from './time';
import { utilValidationChecks } from '../../objectmeta/names';

const DNS1123_LABEL = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN = `${DNS1123_LABEL}(\\.${DNS1123_LABEL})*`;
const DNS1035_LABEL = '[a-z]([-a-z0-9]*[a-z0-9])?';
const QNAME = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_VALUE = `(${QNAME})?`;

function regexError(msg: string, fmt: string, ...examples: string[]): string {
  let s = msg + ' (e.g. ';
  s += examples.map((e) => `'${e}'`).join(',  or ');
  return s + `, regex used for validation is '${fmt}')`;
}

function full(re: string): RegExp {
  return new RegExp(`^(?:${re})$`);
}

// The DNS checks of apimachinery's util/validation (which format.go calls), shared with CRD validation.
const { isDNS1123Label: dns1123Label, isDNS1123Subdomain: dns1123Subdomain, isDNS1035Label: dns1035Label } = utilValidationChecks;

function qualifiedName(v: string): string[] {
  const errs: string[] = [];
  const parts = v.split('/');
  let name: string;
  if (parts.length === 1) name = parts[0];
  else if (parts.length === 2) {
    const prefix = parts[0];
    name = parts[1];
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else for (const m of dns1123Subdomain(prefix)) errs.push('prefix part ' + m);
  } else {
    return [regexError("a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", QNAME, 'MyName', 'my.name', '123-abc') + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (name.length > 63) errs.push('name part must be no more than 63 characters');
  if (!full(QNAME).test(name)) errs.push('name part ' + regexError("must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", QNAME, 'MyName', 'my.name', '123-abc'));
  return errs;
}

function labelValue(v: string): string[] {
  const errs: string[] = [];
  if (v.length > 63) errs.push('must be no more than 63 characters');
  if (!full(LABEL_VALUE).test(v)) errs.push(regexError("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", LABEL_VALUE, 'MyValue', 'my_value', '12345'));
  return errs;
}

/** NameIsDNS*(name, prefix=true): a trailing '-' is allowed in a generateName prefix. */
function asPrefix(fn: (v: string) => string[]): (v: string) => string[] {
  return (v) => fn(v.endsWith('-') ? v.slice(0, -1) + 'a' : v);
}

const VALIDATORS: Record<string, (v: string) => string[]> = {
  dns1123Label,
  dns1123Subdomain,
  dns1035Label,
  qualifiedName,
  dns1123LabelPrefix: asPrefix(dns1123Label),
  dns1123SubdomainPrefix: asPrefix(dns1123Subdomain),
  dns1035LabelPrefix: asPrefix(dns1035Label),
  labelValue,
  uri: (v) => (parseURL(v) ? [] : ['invalid URI']),
  uuid: (v) => (/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(v) ? [] : ['does not match the UUID format']),
  byte: (v) => (/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(v) ? [] : ['invalid base64']),
  date: (v) => (/^\d{4}-\d{2}-\d{2}$/.test(v) && parseRFC3339(`${v}T00:00:00Z`) ? [] : ['invalid date']),
  datetime: (v) => (parseRFC3339(v) ? [] : ['invalid datetime']),
};

/** A named format validator value. */
export class NamedFormat {
  static celTypeName = 'kubernetes.NamedFormat';
  constructor(readonly name: string) {}
  equals(o: NamedFormat): boolean {
    return this.name === o.name;
  }
}

class FormatNamespace {}

/** Registers the format library. */
export function installFormats(env: Environment): void {
  const f = (sig: string, h: (...a: never[]) => unknown) => env.registerFunction(sig, h as (...a: unknown[]) => unknown);
  const F = 'kubernetes.NamedFormat';
  env.registerType(F, NamedFormat);
  env.registerType('FormatNamespace', FormatNamespace);
  env.registerConstant('format', 'FormatNamespace', new FormatNamespace());
  env.registerOperator(`${F} == ${F}`, (a: NamedFormat, b: NamedFormat) => a.equals(b));
  for (const name of Object.keys(VALIDATORS)) f(`FormatNamespace.${name}(): ${F}`, () => new NamedFormat(name));
  f(`FormatNamespace.named(string): optional<${F}>`, (_n: unknown, s: string) =>
    Object.prototype.hasOwnProperty.call(VALIDATORS, s) ? Optional.of(new NamedFormat(s)) : Optional.none());
  f(`${F}.validate(string): optional<list<string>>`, (fmt: NamedFormat, s: string) => {
    const errs = VALIDATORS[fmt.name](s);
    return errs.length ? Optional.of(errs) : Optional.none();
  });
}
