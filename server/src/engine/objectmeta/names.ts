/**
 * Name and label checks of k8s.io/apimachinery (pkg/api/validate/content, pkg/util/validation), with
 * their messages.
 */

const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN_FMT = DNS1123_LABEL_FMT + '(\\.' + DNS1123_LABEL_FMT + ')*';
const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const LABEL_KEY_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_VALUE_FMT = '(' + LABEL_KEY_FMT + ')?';

const dns1123Label = new RegExp('^' + DNS1123_LABEL_FMT + '$');
const dns1123Subdomain = new RegExp('^' + DNS1123_SUBDOMAIN_FMT + '$');
const dns1035Label = new RegExp('^' + DNS1035_LABEL_FMT + '$');
const labelKey = new RegExp('^' + LABEL_KEY_FMT + '$');
const labelValue = new RegExp('^' + LABEL_VALUE_FMT + '$');

/**
 * Whether s is longer than max bytes in UTF-8 (Go's len). A UTF-16 unit is one to three bytes: most
 * names are decided by their length alone, without the native call every name, namespace and label took.
 */
const moreBytesThan = (s: string, max: number): boolean => s.length > max || (s.length * 3 > max && Buffer.byteLength(s, 'utf8') > max);

/**
 * The DNS name checks exist twice in apimachinery with one difference, the unit in the length message:
 * pkg/api/validate/content says "bytes", pkg/util/validation says "characters" (both count UTF-8 bytes).
 * One implementation serves both; callers pick the package they mirror.
 */
export interface DNSNameChecks {
  maxLenError(n: number): string;
  isDNS1123Label(value: string): string[];
  isDNS1123Subdomain(value: string): string[];
  isDNS1035Label(value: string): string[];
}

/** content.RegexError (the same in util/validation) */
export function regexError(msg: string, re: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${re}')`;
  return `${msg} (e.g. ${examples.map((e) => `'${e}', `).join(' or ')}regex used for validation is '${re}')`;
}

function dnsNameChecks(unit: 'bytes' | 'characters'): DNSNameChecks {
  const maxLenError = (n: number) => `must be no more than ${n} ${unit}`;
  return {
    maxLenError,
    isDNS1123Label(value: string): string[] {
      const errs: string[] = [];
      if (moreBytesThan(value, 63)) errs.push(maxLenError(63));
      if (!dns1123Label.test(value)) {
        if (dns1123Subdomain.test(value)) errs.push('must not contain dots');
        else errs.push(regexError("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character", DNS1123_LABEL_FMT, 'my-name', '123-abc'));
      }
      return errs;
    },
    isDNS1123Subdomain(value: string): string[] {
      const errs: string[] = [];
      if (moreBytesThan(value, 253)) errs.push(maxLenError(253));
      if (!dns1123Subdomain.test(value)) {
        errs.push(regexError("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character", DNS1123_SUBDOMAIN_FMT, 'example.com'));
      }
      return errs;
    },
    isDNS1035Label(value: string): string[] {
      const errs: string[] = [];
      if (moreBytesThan(value, 63)) errs.push(maxLenError(63));
      if (!dns1035Label.test(value)) {
        errs.push(
          regexError("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character", DNS1035_LABEL_FMT, 'my-name', 'abc-123'),
        );
      }
      return errs;
    },
  };
}

/** The pkg/api/validate/content checks ("bytes"). */
export const contentChecks = dnsNameChecks('bytes');
/** The pkg/util/validation checks ("characters"). */
export const utilValidationChecks = dnsNameChecks('characters');

const maxLenError = contentChecks.maxLenError;
/** content.IsDNS1123Label */
export const isDNS1123Label = contentChecks.isDNS1123Label;
/** content.IsDNS1123Subdomain */
export const isDNS1123Subdomain = contentChecks.isDNS1123Subdomain;
/** content.IsDNS1035Label */
export const isDNS1035Label = contentChecks.isDNS1035Label;

const LABEL_KEY_MSG = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/** IsQualifiedName (= IsLabelKey) */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const parts = value.split('/');
  let name: string;
  if (parts.length === 1) name = parts[0];
  else if (parts.length === 2) {
    const prefix = parts[0];
    name = parts[1];
    if (prefix.length === 0) errs.push('prefix part must be non-empty');
    else errs.push(...isDNS1123Subdomain(prefix).map((m) => 'prefix part ' + m));
  } else {
    return ['a valid label key ' + regexError(LABEL_KEY_MSG, LABEL_KEY_FMT, 'MyName', 'my.name', '123-abc') + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"];
  }
  if (name.length === 0) errs.push('name part must be non-empty');
  else if (moreBytesThan(name, 63)) errs.push('name part ' + maxLenError(63));
  if (!labelKey.test(name)) errs.push('name part ' + regexError(LABEL_KEY_MSG, LABEL_KEY_FMT, 'MyName', 'my.name', '123-abc'));
  return errs;
}

/** IsValidLabelValue */
export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (moreBytesThan(value, 63)) errs.push(maxLenError(63));
  if (!labelValue.test(value)) {
    errs.push(
      regexError("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character", LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'),
    );
  }
  return errs;
}

/** content.IsPathSegmentName / IsPathSegmentPrefix */
export function isPathSegmentName(name: string, prefix: boolean): string[] {
  if (!prefix && (name === '.' || name === '..')) return [`may not be '${name}'`];
  const errs: string[] = [];
  for (const c of ['/', '%']) if (name.includes(c)) errs.push(`may not contain '${c}'`);
  return errs;
}

function maskTrailingDash(name: string): string {
  return name.length > 1 && name.endsWith('-') ? name.slice(0, -2) + 'a' : name;
}

/** api/validation NameIsDNSSubdomain (util/validation wording): the name check of custom resources and CRDs. */
export function nameIsDNSSubdomain(name: string, prefix: boolean): string[] {
  return utilValidationChecks.isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);
}

/** ValidateNamespaceName = api/validation NameIsDNSLabel (util/validation wording). */
export function validateNamespaceName(name: string, prefix: boolean): string[] {
  return utilValidationChecks.isDNS1123Label(prefix ? maskTrailingDash(name) : name);
}

/** api/validation NameIsDNS1035Label (util/validation wording): a Service's name before RelaxedServiceNameValidation. */
export function nameIsDNS1035Label(name: string, prefix: boolean): string[] {
  return utilValidationChecks.isDNS1035Label(prefix ? maskTrailingDash(name) : name);
}

/** schema.ParseGroupVersion: the error, if any. */
export function parseGroupVersion(gv: string): { group: string; version: string; error?: string } {
  if (gv === '' || gv === '/') return { group: '', version: '' };
  const n = gv.split('/').length - 1;
  if (n === 0) return { group: '', version: gv };
  if (n === 1) {
    const i = gv.indexOf('/');
    return { group: gv.slice(0, i), version: gv.slice(i + 1) };
  }
  return { group: '', version: '', error: `unexpected GroupVersion string: ${gv}` };
}
