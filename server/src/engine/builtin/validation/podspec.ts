/**
 * core/validation's checks of a Pod template (ValidatePodTemplateSpec, ValidatePodSpec) that users hit
 * most: volumes, containers (names, ports, env, volume mounts, resources, probes), the restart policy.
 * The object is the v1 one before defaulting: where a check reads a field the API server defaults first
 * (restartPolicy Always, port protocol TCP, terminationMessagePolicy File, probe thresholds), a missing
 * value stands for the default, so only what the user wrote is judged. See docs/builtin-validation.md for
 * what ValidatePodSpec checks that is not ported.
 */
import { duplicate, forbidden, invalid, notFound, notSupported, required, type FieldPath, type FieldError } from '../../field';
import { parseQuantity, Quantity } from '../../cel/library/quantity';
import { regexError, utilValidationChecks } from '../../objectmeta/names';
import { validateAnnotations, validateLabels } from '../../objectmeta/objectmeta';
import { goKind } from '../../json/go';
import { int, intPtr, isSet, list, obj, ptr, str, stringMap, type JSONObject } from './values';
import { featureGates } from './gates';

const { isDNS1123Label, isDNS1123Subdomain } = utilValidationChecks;

/**
 * The checks below append their errors to the list they are given (Go's `allErrs = append(allErrs,
 * f(...)...)` without a list made and copied for each field), and build a field's path only to report it.
 */

/** What a check of a value gives when nothing is wrong (shared: never changed). */
const NONE: readonly string[] = [];

/** core/validation.ValidateDNS1123Label */
export function validateDNS1123Label(value: string, p: FieldPath, errs: FieldError[]): void {
  for (const m of isDNS1123Label(value)) errs.push(invalid(p, value, m));
}

/** util/validation.IsValidPortNum */
export function isValidPortNum(port: number): readonly string[] {
  return port >= 1 && port <= 65535 ? NONE : ['must be between 1 and 65535, inclusive'];
}

const PORT_NAME_CHARS = /^[-a-z0-9]+$/;
const LETTER = /[a-z]/;

/** util/validation.IsValidPortName: an IANA service name. */
export function isValidPortName(port: string): readonly string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push('must be no more than 15 characters');
  if (!PORT_NAME_CHARS.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!LETTER.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

/** core/validation.ValidatePortNumOrName on an intstr.IntOrString. */
export function validatePortNumOrName(port: unknown, p: FieldPath, errs: FieldError[]): void {
  if (typeof port === 'string') {
    for (const m of isValidPortName(port)) errs.push(invalid(p, port, m));
    return;
  }
  const n = int(port);
  if (n !== undefined) for (const m of isValidPortNum(n)) errs.push(invalid(p, n, m));
}

/** apimachinery ValidateNonnegativeField */
export function validateNonnegativeField(value: number | undefined, p: FieldPath, errs: FieldError[]): void {
  if (value !== undefined && value < 0) errs.push(invalid(p, value, 'must be greater than or equal to 0'));
}

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

/** validateContainerPorts (protocol defaulted to TCP by SetDefaults_ContainerPort). */
function validateContainerPorts(ports: unknown[], fldPath: FieldPath, errs: FieldError[]): void {
  let names: Set<string> | undefined;
  for (let i = 0; i < ports.length; i++) {
    const port = obj(ports[i]);
    const name = str(port.name);
    if (name.length > 0) {
      const msgs = isValidPortName(name);
      if (msgs.length) for (const m of msgs) errs.push(invalid(fldPath.index(i).child('name'), name, m));
      else if (names?.has(name)) errs.push(duplicate(fldPath.index(i).child('name'), name));
      else (names ??= new Set()).add(name);
    }
    const containerPort = int(port.containerPort);
    if (containerPort === 0) errs.push(required(fldPath.index(i).child('containerPort'), ''));
    else if (containerPort !== undefined) for (const m of isValidPortNum(containerPort)) errs.push(invalid(fldPath.index(i).child('containerPort'), containerPort, m));
    const hostPort = int(port.hostPort);
    if (hostPort) for (const m of isValidPortNum(hostPort)) errs.push(invalid(fldPath.index(i).child('hostPort'), hostPort, m));
    const protocol = str(port.protocol);
    if (protocol !== '' && !PROTOCOLS.includes(protocol)) errs.push(notSupported(fldPath.index(i).child('protocol'), protocol, PROTOCOLS));
  }
}

/**
 * An env var name or envFrom prefix as ValidateEnv / validateEnvFrom check it: IsRelaxedEnvVarName with
 * RelaxedEnvironmentVariableValidation (on since 1.32), else IsEnvVarName.
 */
function envVarNameErrors(value: string): readonly string[] {
  return featureGates().relaxedEnvironmentVariableValidation ? isRelaxedEnvVarName(value) : isEnvVarName(value);
}

const ENV_VAR_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;

/** util/validation.IsEnvVarName (before RelaxedEnvironmentVariableValidation). */
function isEnvVarName(value: string): string[] {
  const errs: string[] = [];
  if (!ENV_VAR_NAME.test(value)) {
    errs.push(
      regexError(
        "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit",
        '[-._a-zA-Z][-._a-zA-Z0-9]*',
        'my.env-name',
        'MY_ENV.NAME',
        'MyEnvName1',
      ),
    );
  }
  hasChDirPrefix(value, errs);
  return errs;
}

/** util/validation's hasChDirPrefix, appended to errs. */
function hasChDirPrefix(value: string, errs: string[]): void {
  if (value === '.') errs.push("must not be '.'");
  else if (value === '..') errs.push("must not be '..'");
  else if (value.startsWith('..')) errs.push("must not start with '..'");
}

/** Printable ASCII but '=' (a UTF-16 unit above 0x7e is no ASCII, as the code point it is part of). */
const RELAXED_ENV_VAR_NAME = /^[\x20-\x3c\x3e-\x7e]*$/;

/** util/validation.IsRelaxedEnvVarName (RelaxedEnvironmentVariableValidation, GA since 1.34). */
function isRelaxedEnvVarName(value: string): readonly string[] {
  if (value.length === 0) return ['environment variable name must be non-empty'];
  if (!RELAXED_ENV_VAR_NAME.test(value)) return ["a valid environment variable name must consist only of printable ASCII characters other than '='"];
  return NONE;
}

const CONFIG_MAP_KEY = /^[-._a-zA-Z0-9]+$/;

/** util/validation.IsConfigMapKey */
export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push('must be no more than 253 characters');
  if (!CONFIG_MAP_KEY.test(value)) errs.push(regexError("a valid config key must consist of alphanumeric characters, '-', '_' or '.'", '[-._a-zA-Z0-9]+', 'key.name', 'KEY_NAME', 'key-name'));
  hasChDirPrefix(value, errs);
  return errs;
}

/** validateConfigMapKeySelector / validateSecretKeySelector: the name a DNS subdomain, the key a config key. */
function validateKeySelector(s: JSONObject, p: FieldPath, errs: FieldError[]): void {
  const name = str(s.name);
  for (const m of isDNS1123Subdomain(name)) errs.push(invalid(p.child('name'), name, m));
  const key = str(s.key);
  if (key.length === 0) errs.push(required(p.child('key'), ''));
  else for (const m of isConfigMapKey(key)) errs.push(invalid(p.child('key'), key, m));
}

/** ValidateEnv (relaxed names) and validateEnvVarValueFrom's source count and key selectors. */
function validateEnv(vars: unknown[], fldPath: FieldPath, errs: FieldError[]): void {
  for (let i = 0; i < vars.length; i++) {
    const ev = obj(vars[i]);
    const name = str(ev.name);
    if (name.length === 0) errs.push(required(fldPath.index(i).child('name'), ''));
    else for (const m of envVarNameErrors(name)) errs.push(invalid(fldPath.index(i).child('name'), name, m));
    const from = ptr(ev.valueFrom);
    if (!from) continue;
    const fp = fldPath.index(i).child('valueFrom');
    let sources = 0;
    // fieldRef, resourceFieldRef and fileKeyRef are counted, their own checks are not ported.
    if (ptr(from.fieldRef)) sources++;
    if (ptr(from.resourceFieldRef)) sources++;
    const cm = ptr(from.configMapKeyRef);
    if (cm) {
      sources++;
      validateKeySelector(cm, fp.child('configMapKeyRef'), errs);
    }
    const secret = ptr(from.secretKeyRef);
    if (secret) {
      sources++;
      validateKeySelector(secret, fp.child('secretKeyRef'), errs);
    }
    if (ptr(from.fileKeyRef)) sources++;
    if (sources === 0) errs.push(invalid(fp, '', 'must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`'));
    else if (str(ev.value).length !== 0) errs.push(invalid(fp, '', 'may not be specified when `value` is not empty'));
    else if (sources > 1) errs.push(invalid(fp, '', 'may not have more than one field specified at a time'));
  }
}

/** The VolumeSource members in validateVolumeSource's order, with the path Go names each by. */
const VOLUME_SOURCES: ReadonlyMap<string, string> = new Map([
  ['emptyDir', 'emptyDir'],
  ['hostPath', 'hostPath'],
  ['gitRepo', 'gitRepo'],
  ['gcePersistentDisk', 'gcePersistentDisk'],
  ['awsElasticBlockStore', 'awsElasticBlockStore'],
  ['secret', 'secret'],
  ['nfs', 'nfs'],
  ['iscsi', 'iscsi'],
  ['glusterfs', 'glusterfs'],
  ['flocker', 'flocker'],
  ['persistentVolumeClaim', 'persistentVolumeClaim'],
  ['rbd', 'rbd'],
  ['cinder', 'cinder'],
  ['cephfs', 'cephFS'],
  ['quobyte', 'quobyte'],
  ['downwardAPI', 'downwarAPI'],
  ['fc', 'fc'],
  ['flexVolume', 'flexVolume'],
  ['configMap', 'configMap'],
  ['azureFile', 'azureFile'],
  ['vsphereVolume', 'vsphereVolume'],
  ['photonPersistentDisk', 'photonPersistentDisk'],
  ['portworxVolume', 'portworxVolume'],
  ['azureDisk', 'azureDisk'],
  ['storageos', 'storageos'],
  ['projected', 'projected'],
  ['scaleIO', 'scaleIO'],
  ['csi', 'csi'],
  ['ephemeral', 'ephemeral'],
  ['image', 'image'],
]);

/**
 * The union members Go checks one by one (validateVolumeSource, validateHandler): the first one set is
 * the one used, each later one is Forbidden with `what`. Members map JSON names to names in the path,
 * in Go's order.
 */
function firstMember(o: JSONObject, members: ReadonlyMap<string, string>, p: FieldPath, what: string, errs: FieldError[]): { name: string; path: FieldPath; value: JSONObject } | undefined {
  // An object sets few fields: its own keys are looked up among the members, and when one is set (the
  // rule) it is the answer, without asking the object for each of the (up to 30) members.
  let only: string | undefined;
  let count = 0;
  for (const k in o) {
    if (members.has(k) && ptr(o[k])) {
      only = k;
      count++;
    }
  }
  if (only === undefined) return undefined;
  if (count === 1) return { name: only, path: p.child(members.get(only) as string), value: o[only] as JSONObject };
  let first: { name: string; path: FieldPath; value: JSONObject } | undefined;
  for (const [json, path] of members) {
    const value = ptr(o[json]);
    if (!value) continue;
    if (first) errs.push(forbidden(p.child(path), `may not specify more than 1 ${what}`));
    else first = { name: json, path: p.child(path), value };
  }
  return first;
}

/** The field each common volume source requires (the rest of each source is not ported). */
const REQUIRED_SOURCE_FIELD = new Map([
  ['hostPath', 'path'],
  ['secret', 'secretName'],
  ['persistentVolumeClaim', 'claimName'],
  ['configMap', 'name'],
]);

/** validateVolumeSource: exactly one source; the required name of the common ones. */
function validateVolumeSource(vol: JSONObject, p: FieldPath, errs: FieldError[]): void {
  const src = firstMember(vol, VOLUME_SOURCES, p, 'volume type', errs);
  const need = src && REQUIRED_SOURCE_FIELD.get(src.name);
  if (src && need && str(src.value[need]).length === 0) errs.push(required(src.path.child(need), ''));
  // No source: SetDefaults_Volume gives it an emptyDir, so ValidateVolumes' "must specify a volume type" cannot happen from v1.
}

/** ValidateVolumes: the names of the volumes without errors (what volume mounts may name). */
function validateVolumes(volumes: unknown[], fldPath: FieldPath, errs: FieldError[]): Set<string> {
  const names = new Set<string>();
  for (let i = 0; i < volumes.length; i++) {
    const vol = obj(volumes[i]);
    const p = fldPath.index(i);
    const name = str(vol.name);
    const before = errs.length;
    validateVolumeSource(vol, p, errs);
    if (name.length === 0) errs.push(required(p.child('name'), ''));
    else validateDNS1123Label(name, p.child('name'), errs);
    if (names.has(name)) errs.push(duplicate(p.child('name'), name));
    if (errs.length === before) names.add(name);
  }
  return names;
}

/** ValidateVolumeMounts: name and mountPath required, the name a declared volume, mount paths unique. */
function validateVolumeMounts(mounts: unknown[], volumes: ReadonlySet<string>, fldPath: FieldPath, errs: FieldError[]): void {
  const mountPoints = new Set<string>();
  for (let i = 0; i < mounts.length; i++) {
    const m = obj(mounts[i]);
    const name = str(m.name);
    const mountPath = str(m.mountPath);
    if (name.length === 0) errs.push(required(fldPath.index(i).child('name'), ''));
    if (!volumes.has(name)) errs.push(notFound(fldPath.index(i).child('name'), name));
    if (mountPath.length === 0) errs.push(required(fldPath.index(i).child('mountPath'), ''));
    if (mountPoints.has(mountPath)) errs.push(invalid(fldPath.index(i).child('mountPath'), mountPath, 'must be unique'));
    mountPoints.add(mountPath);
  }
}

/** A quantity as the decoder reads it (a JSON string or number), or undefined when it is not one. */
function quantityOf(v: unknown): Quantity | undefined {
  const text = typeof v === 'string' ? v.trim() : goKind(v) === 'int' || goKind(v) === 'float' ? String(v) : undefined;
  if (text === undefined) return undefined;
  let q = quantities.get(text);
  if (q === undefined) {
    // Manifests repeat a few quantities (100m, 64Mi) many times; parsing one takes big integers.
    if (quantities.size >= 1024) quantities.clear();
    const p = parseQuantity(text);
    quantities.set(text, (q = typeof p === 'string' ? null : p));
  }
  return q ?? undefined;
}

/** Quantities parsed (immutable), by their text; null where the text is none. */
const quantities = new Map<string, Quantity | null>();

const ZERO = Quantity.ofInt(0n);

/** helper.IsNativeResource and not hugepages: IsOvercommitAllowed. */
const overcommitAllowed = (name: string) => (!name.includes('/') || name.includes('kubernetes.io/')) && !name.startsWith('hugepages-');

/**
 * validateResourceRequirements: quantities not negative; a request no more than its limit (equal to it
 * for extended resources, which need a limit). Resource names and hugepages are not ported.
 */
function validateResourceRequirements(resources: JSONObject, fldPath: FieldPath, errs: FieldError[]): void {
  const limits = obj(resources.limits);
  const requests = obj(resources.requests);
  for (const name of Object.keys(limits)) {
    const q = quantityOf(limits[name]);
    if (q && q.compareTo(ZERO) < 0) errs.push(invalid(fldPath.child('limits').key(name), q.goString(), 'must be greater than or equal to 0'));
  }
  for (const name of Object.keys(requests)) {
    const q = quantityOf(requests[name]);
    if (!q) continue;
    if (q.compareTo(ZERO) < 0) errs.push(invalid(fldPath.child('requests').key(name), q.goString(), 'must be greater than or equal to 0'));
    if (name.startsWith('hugepages-')) continue;
    if (Object.hasOwn(limits, name)) {
      const limit = quantityOf(limits[name]);
      if (!limit) continue;
      const c = q.compareTo(limit);
      if (c !== 0 && !overcommitAllowed(name)) errs.push(invalid(fldPath.child('requests'), q.goString(), `must be equal to ${name} limit of ${limit.goString()}`));
      else if (c > 0) errs.push(invalid(fldPath.child('requests'), q.goString(), `must be less than or equal to ${name} limit of ${limit.goString()}`));
    } else if (!overcommitAllowed(name)) {
      errs.push(required(fldPath.child('limits'), 'Limit must be set for non overcommitable resources'));
    }
  }
}

/** The handler members of a probe (handlerFromProbe) and of a lifecycle hook (handlerFromLifecycle), in validateHandler's order. */
const PROBE_HANDLERS: ReadonlyMap<string, string> = new Map(['exec', 'httpGet', 'tcpSocket', 'grpc'].map((m) => [m, m]));
const LIFECYCLE_HANDLERS: ReadonlyMap<string, string> = new Map(['exec', 'httpGet', 'tcpSocket', 'sleep'].map((m) => [m, m]));

/** validateHandler: exactly one handler, and each handler's own checks (httpGet's path and scheme are defaulted). */
function validateHandler(handler: JSONObject, members: ReadonlyMap<string, string>, gracePeriod: number, fldPath: FieldPath, errs: FieldError[]): void {
  const first = firstMember(handler, members, fldPath, 'handler type', errs);
  if (!first) {
    errs.push(required(fldPath, 'must specify a handler type'));
    return;
  }
  const { value: h, path: p } = first;
  switch (first.name) {
    case 'exec':
      if (list(h.command).length === 0) errs.push(required(p.child('command'), ''));
      break;
    case 'httpGet': {
      validatePortNumOrName(h.port ?? 0, p.child('port'), errs);
      const scheme = str(h.scheme);
      if (scheme !== '' && scheme !== 'HTTP' && scheme !== 'HTTPS') errs.push(notSupported(p.child('scheme'), scheme, ['HTTP', 'HTTPS']));
      break;
    }
    case 'tcpSocket':
      validatePortNumOrName(h.port ?? 0, p.child('port'), errs);
      break;
    case 'grpc': {
      const port = int(h.port);
      if (port !== undefined) for (const msg of isValidPortNum(port)) errs.push(invalid(p.child('port'), port, msg));
      break;
    }
    case 'sleep': {
      const s = int(h.seconds);
      if (s !== undefined && (s < 0 || s > gracePeriod)) errs.push(invalid(p, s, `must be non-negative and less than terminationGracePeriodSeconds (${gracePeriod})`));
      break;
    }
  }
}

const PROBE_COUNTS = ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'];

/** validateLivenessProbe / validateReadinessProbe / validateStartupProbe over validateProbe (0 thresholds are defaulted). */
function validateProbe(probe: JSONObject, kind: 'liveness' | 'readiness' | 'startup', gracePeriod: number, p: FieldPath, errs: FieldError[]): void {
  validateHandler(probe, PROBE_HANDLERS, gracePeriod, p, errs);
  for (const f of PROBE_COUNTS) if (isSet(probe[f])) validateNonnegativeField(int(probe[f]), p.child(f), errs);
  const tgps = intPtr(probe.terminationGracePeriodSeconds);
  if (tgps !== undefined && tgps <= 0) errs.push(invalid(p.child('terminationGracePeriodSeconds'), tgps, 'must be greater than 0'));
  const success = int(probe.successThreshold);
  if (kind !== 'readiness' && success !== undefined && success !== 0 && success !== 1) errs.push(invalid(p.child('successThreshold'), success, 'must be 1'));
  if (kind === 'readiness' && tgps !== undefined) errs.push(invalid(p.child('terminationGracePeriodSeconds'), tgps, 'must not be set for readinessProbes'));
}

const LIFECYCLE_HOOKS = ['postStart', 'preStop'];

function validateLifecycle(lifecycle: JSONObject, gracePeriod: number, p: FieldPath, errs: FieldError[]): void {
  for (const hook of LIFECYCLE_HOOKS) {
    const h = ptr(lifecycle[hook]);
    if (h) validateHandler(h, LIFECYCLE_HANDLERS, gracePeriod, p.child(hook), errs);
  }
}

/** A container's lifecycle and probes, those that are set (validateContainers; validateInitContainers with restartPolicy Always). */
function validateLifecycleAndProbes(ctr: JSONObject, gracePeriod: number, p: FieldPath, errs: FieldError[]): void {
  const lifecycle = ptr(ctr.lifecycle);
  if (lifecycle) validateLifecycle(lifecycle, gracePeriod, p.child('lifecycle'), errs);
  const liveness = ptr(ctr.livenessProbe);
  if (liveness) validateProbe(liveness, 'liveness', gracePeriod, p.child('livenessProbe'), errs);
  const readiness = ptr(ctr.readinessProbe);
  if (readiness) validateProbe(readiness, 'readiness', gracePeriod, p.child('readinessProbe'), errs);
  const startup = ptr(ctr.startupProbe);
  if (startup) validateProbe(startup, 'startup', gracePeriod, p.child('startupProbe'), errs);
}

const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];

/** validateContainerCommon: name, image, terminationMessagePolicy, ports, env, envFrom names, mounts, pull policy, resources. */
function validateContainerCommon(ctr: JSONObject, volumes: ReadonlySet<string>, p: FieldPath, errs: FieldError[]): void {
  const name = str(ctr.name);
  if (name.length === 0) errs.push(required(p.child('name'), ''));
  else validateDNS1123Label(name, p.child('name'), errs);
  if (str(ctr.image).length === 0) errs.push(required(p.child('image'), ''));
  const tmp = str(ctr.terminationMessagePolicy);
  if (tmp !== '' && tmp !== 'File' && tmp !== 'FallbackToLogsOnError') errs.push(notSupported(p.child('terminationMessagePolicy'), tmp, ['File', 'FallbackToLogsOnError']));
  // Lists and structs that are empty or unset have nothing to check (and no path to make).
  const ports = list(ctr.ports);
  if (ports.length > 0) validateContainerPorts(ports, p.child('ports'), errs);
  const env = list(ctr.env);
  if (env.length > 0) validateEnv(env, p.child('env'), errs);
  const envFrom = list(ctr.envFrom);
  for (let i = 0; i < envFrom.length; i++) {
    const prefix = str(obj(envFrom[i]).prefix);
    if (prefix.length > 0) for (const m of envVarNameErrors(prefix)) errs.push(invalid(p.child('envFrom').index(i).child('prefix'), prefix, m));
  }
  const mounts = list(ctr.volumeMounts);
  if (mounts.length > 0) validateVolumeMounts(mounts, volumes, p.child('volumeMounts'), errs);
  const pull = str(ctr.imagePullPolicy);
  if (pull !== '' && !PULL_POLICIES.includes(pull)) errs.push(notSupported(p.child('imagePullPolicy'), pull, PULL_POLICIES));
  const resources = ptr(ctr.resources);
  if (resources) validateResourceRequirements(resources, p.child('resources'), errs);
}

const INIT_ONLY = 'may not be set for init containers without restartPolicy=Always';
/** What an init container without restartPolicy Always may not have, in validateInitContainers' order. */
const INIT_FORBIDDEN = ['lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe'];

const RESTART_POLICIES = ['Always', 'OnFailure', 'Never'];

/** The pod spec fields that are DNS labels when set. */
const DNS_LABEL_FIELDS = ['hostname', 'subdomain'];

/** The volumes of a pod spec that has none (shared: only read). */
const NO_VOLUMES: ReadonlySet<string> = new Set();

/**
 * ValidatePodSpec's containers, init containers, ephemeral containers, volumes and restartPolicy
 * (defaulted to Always), plus its DNS-label fields (hostname, subdomain).
 */
export function validatePodSpec(spec: JSONObject, fldPath: FieldPath, errs: FieldError[]): void {
  const gracePeriod = intPtr(spec.terminationGracePeriodSeconds) ?? 30;
  const volumeList = list(spec.volumes);
  const volumes = volumeList.length > 0 ? validateVolumes(volumeList, fldPath.child('volumes'), errs) : NO_VOLUMES;

  const containers = list(spec.containers);
  const initContainers = list(spec.initContainers);
  // validateContainers
  const cPath = fldPath.child('containers');
  if (containers.length === 0) errs.push(required(cPath, ''));
  const names = new Set<string>();
  for (let i = 0; i < containers.length; i++) {
    const ctr = obj(containers[i]);
    const p = cPath.index(i);
    validateContainerCommon(ctr, volumes, p, errs);
    const name = str(ctr.name);
    if (names.has(name)) errs.push(duplicate(p.child('name'), name));
    else names.add(name);
    validateLifecycleAndProbes(ctr, gracePeriod, p, errs);
  }
  // validateInitContainers: names unique across containers and init containers
  const allNames = names;
  for (let i = 0; i < initContainers.length; i++) {
    const ctr = obj(initContainers[i]);
    const p = fldPath.child('initContainers').index(i);
    validateContainerCommon(ctr, volumes, p, errs);
    // Its restartPolicy values (ContainerRestartRules, beta in 1.35) are not ported.
    const restartPolicy = ctr.restartPolicy;
    const name = str(ctr.name);
    if (allNames.has(name)) errs.push(duplicate(p.child('name'), name));
    else if (name.length > 0) allNames.add(name);
    if (restartPolicy === 'Always') validateLifecycleAndProbes(ctr, gracePeriod, p, errs);
    else for (const f of INIT_FORBIDDEN) if (ptr(ctr[f])) errs.push(forbidden(p.child(f), INIT_ONLY));
  }
  // validateEphemeralContainers: names unique across all containers (the allow-list of fields is not ported)
  const ephemeralContainers = list(spec.ephemeralContainers);
  if (ephemeralContainers.length > 0) {
    const ephemeralNames = new Set<string>();
    for (const c of containers) ephemeralNames.add(str(obj(c).name));
    for (const c of initContainers) ephemeralNames.add(str(obj(c).name));
    for (let i = 0; i < ephemeralContainers.length; i++) {
      const ec = obj(ephemeralContainers[i]);
      const p = fldPath.child('ephemeralContainers').index(i);
      validateContainerCommon(ec, volumes, p, errs);
      const name = str(ec.name);
      if (ephemeralNames.has(name)) errs.push(duplicate(p.child('name'), name));
      else ephemeralNames.add(name);
    }
  }

  const restartPolicy = str(spec.restartPolicy);
  if (restartPolicy !== '' && !RESTART_POLICIES.includes(restartPolicy)) errs.push(notSupported(fldPath.child('restartPolicy'), restartPolicy, RESTART_POLICIES));
  const nodeSelector = ptr(spec.nodeSelector);
  if (nodeSelector) errs.push(...validateLabels(stringMap(nodeSelector), fldPath.child('nodeSelector')));
  for (const f of DNS_LABEL_FIELDS) {
    const v = str(spec[f]);
    if (v.length > 0) validateDNS1123Label(v, fldPath.child(f), errs);
  }
}

/** The restart policy after SetDefaults_PodSpec: Always when unset. */
export const defaultedRestartPolicy = (spec: JSONObject): string => str(spec.restartPolicy) || 'Always';

/** ValidatePodTemplateSpec: template labels and annotations, the pod spec, no ephemeral containers. */
export function validatePodTemplateSpec(template: JSONObject, fldPath: FieldPath, errs: FieldError[]): void {
  const meta = obj(template.metadata);
  const labels = ptr(meta.labels);
  if (labels) errs.push(...validateLabels(stringMap(labels), fldPath.child('labels')));
  const annotations = ptr(meta.annotations);
  if (annotations) errs.push(...validateAnnotations(stringMap(annotations), fldPath.child('annotations')));
  const spec = obj(template.spec);
  validatePodSpec(spec, fldPath.child('spec'), errs);
  if (list(spec.ephemeralContainers).length > 0) errs.push(forbidden(fldPath.child('spec', 'ephemeralContainers'), 'ephemeral containers not allowed in pod template'));
}
