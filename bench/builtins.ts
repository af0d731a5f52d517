/**
 * `npm run bench -- --only builtins`: `crd-yaml check` over 5,000 objects of built-in kinds (Deployments,
 * Services, ConfigMaps, RBAC, Jobs, Ingresses, StatefulSets, CronJobs, in 50 files), beside kubectl-validate
 * and kubeconform (each built from its Go module into .work/bench/go/bin when missing), one run each: wall
 * time and peak RSS. kubeconform reads JSON schemas from a schema location it would download; offline it
 * is given the schemas of crd-yaml's own table (Kubernetes 1.37), written as standalone JSON schemas in
 * their -strict form, and runs with -strict (unknown fields refused, as crd-yaml does).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { parse, stringify } from 'yaml';
import { builtinSchemas } from '../server/src/workspace/builtinSchemas';

const KUBECONFORM = 'github.com/yannh/kubeconform/cmd/kubeconform@v0.8.0';

const OBJECTS: Array<(i: number) => string> = [
  (i) =>
    `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web-${i}\n  labels: {app: web-${i}}\nspec:\n  replicas: 2\n  selector:\n    matchLabels: {app: web-${i}}\n  template:\n    metadata:\n      labels: {app: web-${i}}\n    spec:\n      containers:\n      - name: web\n        image: nginx:1.27\n        ports: [{containerPort: 8080, name: http}]\n        resources: {requests: {cpu: 100m, memory: 64Mi}, limits: {cpu: "1", memory: 256Mi}}\n        readinessProbe: {httpGet: {path: /healthz, port: http}}\n        env: [{name: MODE, value: prod}]\n`,
  (i) => `apiVersion: v1\nkind: Service\nmetadata:\n  name: web-${i}\nspec:\n  selector: {app: web-${i}}\n  ports: [{name: http, port: 80, targetPort: http}]\n`,
  (i) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg-${i}\ndata:\n  app.properties: |\n    a=1\n    b=2\n`,
  (i) => `apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: sa-${i}\n`,
  (i) => `apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: reader-${i}\nrules:\n- apiGroups: [""]\n  resources: [pods, configmaps]\n  verbs: [get, list, watch]\n`,
  (i) =>
    `apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: reader-${i}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: reader-${i}}\nsubjects: [{kind: ServiceAccount, name: sa-${i}}]\n`,
  (i) => `apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: job-${i}\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: run, image: busybox, command: [sh, -c, "echo ${i}"]}]\n`,
  (i) =>
    `apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: web-${i}\nspec:\n  rules:\n  - host: web-${i}.example.com\n    http:\n      paths:\n      - {path: /, pathType: Prefix, backend: {service: {name: web-${i}, port: {name: http}}}}\n`,
  (i) =>
    `apiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: db-${i}\nspec:\n  serviceName: db-${i}\n  selector:\n    matchLabels: {app: db-${i}}\n  template:\n    metadata:\n      labels: {app: db-${i}}\n    spec:\n      containers: [{name: db, image: postgres:16, volumeMounts: [{name: data, mountPath: /var/lib/postgresql}]}]\n  volumeClaimTemplates:\n  - metadata: {name: data}\n    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n`,
  (i) =>
    `apiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: cron-${i}\nspec:\n  schedule: "*/5 * * * *"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: OnFailure\n          containers: [{name: run, image: busybox}]\n`,
];

/** 5,000 objects in 50 files of 100 documents, in block style (as `helm template` and `kustomize build` print them). */
export function writeBuiltinObjects(dir: string, count = 5000, perFile = 100): number {
  fs.mkdirSync(dir, { recursive: true });
  let n = 0;
  for (let f = 0; n < count; f++) {
    const docs: string[] = [];
    for (let k = 0; k < perFile && n < count; k++, n++) docs.push(stringify(parse(OBJECTS[n % OBJECTS.length](n))));
    fs.writeFileSync(path.join(dir, `objects-${String(f).padStart(3, '0')}.yaml`), docs.join('---\n'));
  }
  return n;
}

/** A Go tool from .work/bench/go/bin (built with go install when missing), or why there is none. */
export function goTool(root: string, name: string, module: string): { bin: string } | { skipped: string } {
  const bin = path.join(root, '.work', 'bench', 'go', 'bin', name);
  if (fs.existsSync(bin)) return { bin };
  if (spawnSync('go', ['version']).status !== 0) return { skipped: `go is not installed (${name} is built from its Go module)` };
  console.log(`building ${module} into .work/bench/go/bin (once) ...`);
  const r = spawnSync('go', ['install', module], { stdio: 'inherit', env: { ...process.env, GOBIN: path.dirname(bin) } });
  return r.status === 0 && fs.existsSync(bin) ? { bin } : { skipped: `go install ${module} failed` };
}

export const kubeconformModule = KUBECONFORM;

/**
 * The -strict variant of a schema, as openapi2jsonschema --strict writes kubeconform's: objects with
 * properties allow no others (crd-yaml refuses unknown fields as kubectl apply does: the same work).
 */
function strict(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(strict);
  if (typeof s !== 'object' || s === null) return s;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) out[k] = k === 'enum' || k === 'default' ? v : strict(v);
  if (out.properties && out.additionalProperties === undefined && out['x-kubernetes-preserve-unknown-fields'] !== true) out.additionalProperties = false;
  return out;
}

/**
 * kubeconform's standalone JSON schemas (`<kind>-<group>-<version>.json`, lower case) of the kinds used,
 * from crd-yaml's table at Kubernetes 1.37; returns the `-schema-location` template.
 */
export function writeKubeconformSchemas(dir: string): string {
  fs.mkdirSync(dir, { recursive: true });
  const table = builtinSchemas();
  if (!table) throw new Error('no built-in schema table (run npm run build)');
  const kinds: Array<[string, string]> = [
    ['apps/v1', 'Deployment'],
    ['v1', 'Service'],
    ['v1', 'ConfigMap'],
    ['v1', 'ServiceAccount'],
    ['rbac.authorization.k8s.io/v1', 'Role'],
    ['rbac.authorization.k8s.io/v1', 'RoleBinding'],
    ['batch/v1', 'Job'],
    ['networking.k8s.io/v1', 'Ingress'],
    ['apps/v1', 'StatefulSet'],
    ['batch/v1', 'CronJob'],
  ];
  for (const [apiVersion, kind] of kinds) {
    const schema = table.schema(apiVersion, kind, 37);
    const [group, version] = apiVersion.includes('/') ? apiVersion.split('/') : ['', apiVersion];
    const suffix = group ? `-${group.split('.')[0]}-${version}` : `-${version}`;
    fs.writeFileSync(path.join(dir, `${kind.toLowerCase()}${suffix}.json`), JSON.stringify(strict(schema)));
  }
  return path.join(dir, '{{ .ResourceKind }}{{ .KindSuffix }}.json');
}
