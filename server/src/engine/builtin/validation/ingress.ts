/**
 * networking/validation.ValidateIngressCreate: rules or a default backend, hosts (DNS subdomains or
 * wildcards, not IP addresses), each path's pathType and path, backends (a service name and a port name
 * or number, or a resource), TLS hosts and secret names, the class name. The resource backend's own
 * checks are not ported.
 */
import { FieldPath, invalid, notSupported, required, type FieldError } from '../../field';
import { nameIsDNS1035Label, utilValidationChecks, regexError } from '../../objectmeta/names';
import { featureGates } from './gates';
import { isValidPortName, isValidPortNum } from './podspec';
import { int, list, obj, ptr, SPEC_PATH, str, type JSONObject } from './values';

const { isDNS1123Subdomain, isDNS1123Label } = utilValidationChecks;
const DNS1123_SUBDOMAIN_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*';
const WILDCARD_FMT = '\\*\\.' + DNS1123_SUBDOMAIN_FMT;
const wildcardRe = new RegExp('^' + WILDCARD_FMT + '$');

/** util/validation.IsWildcardDNS1123Subdomain */
function isWildcardDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push('must be no more than 253 characters');
  if (!wildcardRe.test(value)) {
    errs.push(
      regexError(
        "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character",
        WILDCARD_FMT,
        '*.example.com',
      ),
    );
  }
  return errs;
}

/** netutils.ParseIPSloppy accepts it: IPv4 (leading zeros allowed) or IPv6. */
function isIP(host: string): boolean {
  if (IPV4.test(host)) return host.split('.').every((o) => Number(o) <= 255);
  return host.includes(':') && IPV6_CHARS.test(host) && (host.match(/::/g) ?? []).length <= 1;
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;
const IPV6_CHARS = /^[0-9a-fA-F:.]+$/;

const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];

function validateIngressBackend(backend: JSONObject, p: FieldPath, errs: FieldError[]): void {
  const resource = ptr(backend.resource);
  const service = ptr(backend.service);
  if (resource && service) {
    errs.push(invalid(p, '', 'cannot set both resource and service backends'));
    return;
  }
  if (resource) return;
  if (!service) {
    errs.push(invalid(p, '', 'resource or service backend is required'));
    return;
  }
  const name = str(service.name);
  if (name.length === 0) errs.push(required(p.child('service', 'name'), ''));
  // ValidateServiceName: NameIsDNSLabel with RelaxedServiceNameValidation (on since 1.36), else NameIsDNS1035Label
  else for (const m of featureGates().relaxedServiceNameValidation ? isDNS1123Label(name) : nameIsDNS1035Label(name, false)) errs.push(invalid(p.child('service', 'name'), name, m));
  const port = obj(service.port);
  const portName = str(port.name);
  const portNumber = int(port.number) ?? 0;
  if (portName.length > 0 && portNumber !== 0) errs.push(invalid(p, '', 'cannot set both port name & port number'));
  else if (portName.length > 0) for (const m of isValidPortName(portName)) errs.push(invalid(p.child('service', 'port', 'name'), portName, m));
  else if (portNumber !== 0) for (const m of isValidPortNum(portNumber)) errs.push(invalid(p.child('service', 'port', 'number'), portNumber, m));
  else errs.push(required(p, 'port name or number is required'));
}

/** The sequences an Exact or Prefix path may not contain, and the ends it may not have. */
const INVALID_PATH_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INVALID_PATH_SUFFIXES = ['/..', '/.'];

function validateHTTPIngressPath(path: JSONObject, p: FieldPath, errs: FieldError[]): void {
  if (typeof path.pathType !== 'string') {
    errs.push(required(p.child('pathType'), 'pathType must be specified'));
    return;
  }
  const pathType = path.pathType;
  const value = str(path.path);
  if (pathType === 'Exact' || pathType === 'Prefix') {
    if (!value.startsWith('/')) errs.push(invalid(p.child('path'), value, 'must be an absolute path'));
    if (value.length > 0) {
      for (const seq of INVALID_PATH_SEQUENCES) if (value.includes(seq)) errs.push(invalid(p.child('path'), value, `must not contain '${seq}'`));
      for (const suf of INVALID_PATH_SUFFIXES) if (value.endsWith(suf)) errs.push(invalid(p.child('path'), value, `cannot end with '${suf}'`));
    }
  } else if (pathType === 'ImplementationSpecific') {
    if (value.length > 0 && !value.startsWith('/')) errs.push(invalid(p.child('path'), value, 'must be an absolute path'));
  } else errs.push(notSupported(p.child('pathType'), pathType, PATH_TYPES));
  validateIngressBackend(obj(path.backend), p.child('backend'), errs);
}

export function validateIngress(object: JSONObject, errs: FieldError[]): void {
  const spec = obj(object.spec);
  const sp = SPEC_PATH;
  const rules = list(spec.rules);
  const defaultBackend = ptr(spec.defaultBackend);
  if (rules.length === 0 && !defaultBackend) errs.push(invalid(sp, rules.length ? rules : null, 'either `defaultBackend` or `rules` must be specified'));
  if (defaultBackend) validateIngressBackend(defaultBackend, sp.child('defaultBackend'), errs);
  for (let i = 0; i < rules.length; i++) {
    const rule = obj(rules[i]);
    const p = sp.child('rules').index(i);
    const host = str(rule.host);
    if (host.length > 0) {
      if (isIP(host)) errs.push(invalid(p.child('host'), host, 'must be a DNS name, not an IP address'));
      if (host.includes('*')) for (const m of isWildcardDNS1123Subdomain(host)) errs.push(invalid(p.child('host'), host, m));
      else for (const m of isDNS1123Subdomain(host)) errs.push(invalid(p.child('host'), host, m));
    }
    const http = ptr(rule.http);
    if (http) {
      const paths = list(http.paths);
      if (paths.length === 0) errs.push(required(p.child('http', 'paths'), ''));
      for (let j = 0; j < paths.length; j++) validateHTTPIngressPath(obj(paths[j]), p.child('http', 'paths').index(j), errs);
    }
  }
  const tlsList = list(spec.tls);
  for (let i = 0; i < tlsList.length; i++) {
    const tls = obj(tlsList[i]);
    const p = sp.child('tls').index(i);
    const hosts = list(tls.hosts);
    for (let j = 0; j < hosts.length; j++) {
      const host = str(hosts[j]);
      const msgs = host.includes('*') ? isWildcardDNS1123Subdomain(host) : isDNS1123Subdomain(host);
      for (const m of msgs) errs.push(invalid(p.child('hosts').index(j), host, m));
    }
    const secretName = str(tls.secretName);
    if (secretName.length > 0) for (const m of isDNS1123Subdomain(secretName)) errs.push(invalid(p.child('secretName'), secretName, m));
  }
  if (typeof spec.ingressClassName === 'string') {
    for (const m of isDNS1123Subdomain(spec.ingressClassName)) errs.push(invalid(sp.child('ingressClassName'), spec.ingressClassName, m));
  }
  const annotations = obj(obj(object.metadata).annotations);
  const annotation = annotations['kubernetes.io/ingress.class'];
  if (typeof annotation === 'string' && typeof spec.ingressClassName === 'string' && annotation !== spec.ingressClassName) {
    errs.push(invalid(FieldPath.root('annotations').child('kubernetes.io/ingress.class'), annotation, 'must match `ingressClassName` when both are specified'));
  }
}
