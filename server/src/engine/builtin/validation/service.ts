/**
 * core/validation.validateService on create: ports (names required and unique when there are several,
 * DNS labels; numbers; protocol, defaulted to TCP; targetPort, defaulted to the port), no duplicate
 * port/protocol pairs, the selector's labels, the type, ExternalName's name, nodePort on ClusterIP.
 * IP families, cluster IPs, traffic policies, source ranges and session affinity are not ported.
 */
import { duplicate, forbidden, invalid, notSupported, required, type FieldError } from '../../field';
import { GoStruct } from '../../json/go';
import { validateLabels } from '../../objectmeta/objectmeta';
import { isQualifiedName } from '../../objectmeta/names';
import { isValidPortNum, validateDNS1123Label, validatePortNumOrName } from './podspec';
import { int, list, obj, ptr, SPEC_PATH, str, stringMap, type JSONObject } from './values';
import { utilValidationChecks } from '../../objectmeta/names';

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];

export function validateService(object: JSONObject, errs: FieldError[]): void {
  const spec = obj(object.spec);
  const sp = SPEC_PATH;
  const type = str(spec.type) || 'ClusterIP';
  const clusterIP = str(spec.clusterIP);
  const headless = clusterIP === 'None' || str(list(spec.clusterIPs)[0]) === 'None';
  const ports = list(spec.ports);
  if (ports.length === 0 && !headless && type !== 'ExternalName') errs.push(required(sp.child('ports'), ''));
  if (type === 'ExternalName') {
    const cname = str(spec.externalName).replace(TRAILING_DOT, '');
    if (cname.length > 0) for (const m of utilValidationChecks.isDNS1123Subdomain(cname)) errs.push(invalid(sp.child('externalName'), cname, m));
    else errs.push(required(sp.child('externalName'), ''));
  }
  const names = new Set<string>();
  for (let i = 0; i < ports.length; i++) {
    const port = obj(ports[i]);
    const p = sp.child('ports').index(i);
    const name = str(port.name);
    if (ports.length > 1 && name.length === 0) errs.push(required(p.child('name'), ''));
    else if (name.length !== 0) {
      validateDNS1123Label(name, p.child('name'), errs);
      if (names.has(name)) errs.push(duplicate(p.child('name'), name));
      else names.add(name);
    }
    const num = int(port.port);
    if (num !== undefined) for (const m of isValidPortNum(num)) errs.push(invalid(p.child('port'), num, m));
    const protocol = str(port.protocol);
    if (protocol !== '' && !PROTOCOLS.includes(protocol)) errs.push(notSupported(p.child('protocol'), protocol, PROTOCOLS));
    // SetDefaults_Service: a zero or empty targetPort is the port.
    const tp = port.targetPort;
    const defaulted = tp === undefined || tp === null || tp === 0 || tp === '' ? (num ?? 0) : tp;
    validatePortNumOrName(defaulted, p.child('targetPort'), errs);
    if (typeof port.appProtocol === 'string') for (const m of isQualifiedName(port.appProtocol)) errs.push(invalid(p.child('appProtocol'), port.appProtocol, m));
  }
  if (ptr(spec.selector)) errs.push(...validateLabels(stringMap(spec.selector), sp.child('selector')));
  if (!TYPES.includes(type)) errs.push(notSupported(sp.child('type'), type, TYPES));
  if (type === 'ClusterIP') {
    for (let i = 0; i < ports.length; i++) {
      if (int(obj(ports[i]).nodePort)) errs.push(forbidden(sp.child('ports').index(i).child('nodePort'), "may not be used when `type` is 'ClusterIP'"));
    }
  }
  // Duplicate nodePorts: on create the allocator answers first ("provided port is already allocated"), not validation.
  const seen = new Set<string>();
  for (let i = 0; i < ports.length; i++) {
    const port = obj(ports[i]);
    const protocol = str(port.protocol) || 'TCP';
    const num = int(port.port) ?? 0;
    const key = `${protocol}/${num}`;
    // The key printed is a core.ServicePort with only Port and Protocol set, as json.Marshal writes it.
    if (seen.has(key)) errs.push(duplicate(sp.child('ports').index(i), servicePortKey(protocol, num)));
    seen.add(key);
  }
}

const TRAILING_DOT = /\.$/;

/** core.ServicePort{Protocol, Port} as json.Marshal prints the internal struct (no json tags: Go field names). */
function servicePortKey(protocol: string, port: number): GoStruct {
  return new GoStruct([
    ['Name', ''],
    ['Protocol', protocol],
    ['AppProtocol', null],
    ['Port', port],
    ['TargetPort', 0],
    ['NodePort', 0],
  ]);
}
