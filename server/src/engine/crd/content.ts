/**
 * String-format checks of k8s.io/apimachinery pkg/util/validation, returning Go's messages ("must be no
 * more than N characters"). Label keys and values follow api/validate/content, whose wording differs
 * ("bytes"): those come from engine/objectmeta. The patterns are fixed (never user input), so plain JS
 * regexes are safe here.
 */
export { isQualifiedName, isValidLabelValue } from '../objectmeta/names';

const dns1123LabelFmt = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const dns1123SubdomainFmt = `${dns1123LabelFmt}(\\.${dns1123LabelFmt})*`;
const dns1035LabelFmt = '[a-z]([-a-z0-9]*[a-z0-9])?';

const dns1123LabelRe = new RegExp(`^${dns1123LabelFmt}$`);
const dns1123SubdomainRe = new RegExp(`^${dns1123SubdomainFmt}$`);
const dns1035LabelRe = new RegExp(`^${dns1035LabelFmt}$`);

/** Go's validation.MaxLenError. */
export function maxLenError(n: number): string {
  return `must be no more than ${n} characters`;
}

/** Go's validation.RegexError: the message, the examples and the pattern. */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  let s = msg + ' (e.g. ';
  examples.forEach((e, i) => {
    if (i > 0) s += ' or ';
    s += `'${e}', `;
  });
  return s + `regex used for validation is '${fmt}')`;
}

/** Go's len(): UTF-8 bytes. */
function byteLen(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/** validation.IsDNS1123Label */
export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLen(value) > 63) errs.push(maxLenError(63));
  if (!dns1123LabelRe.test(value)) {
    if (dns1123SubdomainRe.test(value)) errs.push('must not contain dots');
    else
      errs.push(
        regexError(
          "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character",
          dns1123LabelFmt,
          'my-name',
          '123-abc',
        ),
      );
  }
  return errs;
}

/** validation.IsDNS1123Subdomain */
export function isDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (byteLen(value) > 253) errs.push(maxLenError(253));
  if (!dns1123SubdomainRe.test(value)) {
    errs.push(
      regexError(
        "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character",
        dns1123SubdomainFmt,
        'example.com',
      ),
    );
  }
  return errs;
}

/** validation.IsDNS1035Label */
export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (byteLen(value) > 63) errs.push(maxLenError(63));
  if (!dns1035LabelRe.test(value)) {
    errs.push(
      regexError(
        "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character",
        dns1035LabelFmt,
        'my-name',
        'abc-123',
      ),
    );
  }
  return errs;
}

/** validation.IsValidPortNum */
export function isValidPortNum(port: number): string[] {
  if (1 <= port && port <= 65535) return [];
  return ['must be between 1 and 65535, inclusive'];
}
