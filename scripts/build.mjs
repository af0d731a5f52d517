// Bundles the client, the language server (main thread and workers) and the CLI into dist/ with esbuild.
// dist/server.js starts dist/worker.js (beside it) twice: the check worker and the query worker.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';

/** A CRD with the features a check goes through (pruning, defaults, formats, CEL) for the warm-up run. */
const WARM_UP_CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: { kind: Widget, plural: widgets, singular: widget, listKind: WidgetList }
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - rule: "self.size <= 10 || self.mode == 'big'"
              message: size above 10 needs mode big
            properties:
              size: { type: integer, maximum: 100 }
              mode: { type: string, enum: [small, big], default: small }
              # Patterns as real CRDs write them (a DNS subdomain, a Go duration): groups, alternation and
              # repetition, so that the code cache holds the regexp compiler's paths a real pattern takes.
              host: { type: string, format: hostname, pattern: "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$" }
              interval: { type: string, pattern: "^([0-9]+(\\\\.[0-9]+)?(ms|s|m|h))+$" }
              # A pattern V8 matches (engine/regex/native.ts: deterministic, anchored), so that reading
              # and translating one is in the cache too.
              schedule: { type: string, pattern: "^(\\\\d+|\\\\*)(/\\\\d+)?(\\\\s+(\\\\d+|\\\\*)(/\\\\d+)?){4}$" }
`;

/** Built-in objects of the kinds most repositories hold, for the code cache's warm-up check. */
const WARM_UP_BUILTINS = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app: web
spec:
  replicas: 2
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      serviceAccountName: web
      containers:
      - name: web
        image: nginx:1.27
        args: [--port, "8080"]
        ports:
        - containerPort: 8080
          name: http
        env:
        - name: MODE
          value: prod
        - name: TOKEN
          valueFrom:
            secretKeyRef: {name: web, key: token}
        resources:
          requests: {cpu: 100m, memory: 64Mi}
          limits: {cpu: "1", memory: 256Mi}
        readinessProbe:
          httpGet: {path: /healthz, port: http}
        livenessProbe:
          tcpSocket: {port: 8080}
        volumeMounts:
        - name: config
          mountPath: /etc/web
      volumes:
      - name: config
        configMap:
          name: web
---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector:
    app: web
  ports:
  - name: http
    port: 80
    targetPort: http
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: web
data:
  app.properties: a=1
---
apiVersion: v1
kind: Secret
metadata:
  name: web
stringData:
  token: x
---
apiVersion: v1
kind: ServiceAccount
metadata:
  name: web
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: web
rules:
- apiGroups: [""]
  resources: [pods, configmaps]
  verbs: [get, list, watch]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: web
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: web}
subjects:
- kind: ServiceAccount
  name: web
---
apiVersion: batch/v1
kind: CronJob
metadata:
  name: cleanup
spec:
  schedule: "*/5 * * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers:
          - name: run
            image: busybox
            command: [sh, -c, echo]
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata:
  name: web
spec:
  rules:
  - host: web.example.com
    http:
      paths:
      - path: /
        pathType: Prefix
        backend:
          service:
            name: web
            port:
              name: http
---
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: db
spec:
  serviceName: db
  selector:
    matchLabels:
      app: db
  template:
    metadata:
      labels:
        app: db
    spec:
      containers:
      - name: db
        image: postgres:16
        volumeMounts:
        - name: data
          mountPath: /var/lib/postgresql
  volumeClaimTemplates:
  - metadata:
      name: data
    spec:
      accessModes: [ReadWriteOnce]
      resources:
        requests:
          storage: 1Gi
`;

/**
 * engine/ and service/ are reached through their faces (index.ts re-exporting what other layers use). Their
 * modules do nothing when loaded but declare: marked free of side effects, esbuild leaves out every module a
 * bundle does not use through a face, so the CLI's small launcher stays small.
 */
const faces = {
  name: 'faces',
  setup(b) {
    b.onResolve({ filter: /^\.\.?\// }, (args) => {
      const path = join(args.resolveDir, args.path);
      if (!/[/\\]server[/\\]src[/\\](engine|service)([/\\]|$)/.test(path)) return undefined;
      const file = [`${path}.ts`, join(path, 'index.ts'), path].find((f) => existsSync(f) && statSync(f).isFile());
      return file ? { path: file, sideEffects: false } : undefined;
    });
  },
};

const common = {
  bundle: true,
  plugins: [faces],
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: true,
  minify: process.argv.includes('--minify'),
  logLevel: 'warning',
};

await Promise.all([
  build({ ...common, entryPoints: ['client/src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] }),
  build({ ...common, entryPoints: ['server/src/server.ts'], outfile: 'dist/server.js' }),
  build({ ...common, entryPoints: ['server/src/worker.ts'], outfile: 'dist/worker.js' }),
  build({ ...common, entryPoints: ['server/src/cli.ts'], outfile: 'dist/cli-main.js' }),
  build({ ...common, entryPoints: ['server/src/cli/launch.ts'], outfile: 'dist/cli-launch.js' }),
]);

// The built-in kinds' schemas (engine/builtin/schemas.json, 3 MB): read by workspace/builtinSchemas.ts beside
// the bundles on first use, not bundled (every start-up would compile them). Written for a quick first use,
// still one JSON value: a first line `{"header":{...,"definitionsAt":{id:[start,end]}},` that is all a
// start-up parses (0.1 MB), then the definitions, each read from its byte offsets (after that line) when a
// kind that uses it is checked (a check of Deployments and Services reads a tenth of them); in ASCII (read
// as latin1, without decoding 3 MB of UTF-8).
{
  const { definitions, ...header } = JSON.parse(readFileSync('server/src/engine/builtin/schemas.json', 'utf8'));
  const ascii = (t) => t.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  const at = {};
  let body = '"definitions":{';
  for (const [id, d] of Object.entries(definitions)) {
    body += `${body.endsWith('{') ? '' : ','}${JSON.stringify(id)}:`;
    const text = ascii(JSON.stringify(d));
    at[id] = [body.length, body.length + text.length];
    body += text;
  }
  writeFileSync('dist/builtin-schemas.json', `{"header":${ascii(JSON.stringify({ ...header, definitionsAt: at }))},\n${body}}}`);
}

// The bundles as ASCII: esbuild leaves non-ASCII characters in regular expression literals and comments
// (a µ in a duration pattern, a ± in a comment), and one of them makes V8 hold the whole 1.7 MB source as a
// two-byte string: 3.5 MB in every thread that loads it. Escaped, they mean the same in literals and nothing
// in comments (source maps shift by a few columns on those lines).
for (const file of ['dist/cli-main.js', 'dist/cli-launch.js', 'dist/server.js', 'dist/worker.js']) {
  const text = readFileSync(file, 'utf8');
  if (/[\u0080-\uffff]/.test(text))
    writeFileSync(
      file,
      text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    );
}

// The CLI's entry starts the small launcher (cli/launch.ts) and loads the program (cli-main.js) only where
// it is needed (a check in the main thread, or in a worker), with V8's code cache (dist/cli-main.js.cache):
// a one-shot \`crd-yaml check\` otherwise spends a good part of a small run compiling 1.7 MB of JavaScript.
// A cache V8 rejects (another Node version, other flags) only costs the compile. A check worker starts at
// dist/cli-job.js, so that the main thread's entry needs no node:worker_threads to tell which it is.
writeFileSync(
  'dist/cli-load.js',
  `"use strict";
// crd-yaml CLI (scripts/build.mjs): loads cli-main.js, compiled from its code cache when V8 accepts it.
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const file = path.join(__dirname, 'cli-main.js');
let program;
exports.load = function load() {
  if (program) return program;
  let cachedData;
  try {
    cachedData = fs.readFileSync(file + '.cache');
  } catch {}
  // The bundle is ASCII (scripts/build.mjs): read as latin1, it needs no UTF-8 decoding.
  const script = new vm.Script(require('node:module').wrap(fs.readFileSync(file, 'latin1')), { filename: file, cachedData });
  const m = { exports: {} };
  // Said on request (test/cli/launcher.test.ts): a cache V8 rejects costs every start the whole compile.
  if (process.env.CRD_YAML_REPORT_CODE_CACHE) process.stderr.write(\`crd-yaml: code cache \${cachedData ? (script.cachedDataRejected ? 'rejected' : 'accepted') : 'missing'}\\n\`);
  script.runInThisContext()(m.exports, require, m, file, __dirname);
  if (process.env.CRD_YAML_BUILD_CODE_CACHE) process.on('exit', () => fs.writeFileSync(file + '.cache', script.createCachedData()));
  return (program = m.exports);
};
`,
);
writeFileSync(
  'dist/cli.js',
  `#!/usr/bin/env node
"use strict";
// crd-yaml CLI (scripts/build.mjs): cli-launch.js in the main thread; the program (cli-load.js) where it is
// needed; check workers start at cli-job.js.
// V8 optimizes a function once it has run about 66 KB of bytecode; a one-shot check spent a third of its CPU
// in the optimizing compiler, on functions whose work was nearly done. At 250 KB (set before the program is
// compiled, so that the code cache, made and read under the same flags, is accepted), on 2 cores: 5,000
// built-in objects 0.46 -> 0.39-0.40 s wall, 0.70 -> 0.54 s CPU; 414 catalog CRDs (28 MB) 3.72 -> 3.23-3.49 s,
// 5.5 -> 4.4-4.8 s CPU; 356 real CRDs 5.0 -> 4.7 s (same findings, byte for byte).
// crd-yaml lsp runs under it too: a long-lived server's functions are optimized a little later, the same once
// warm (the VS Code extension's server, dist/server.js, keeps V8's default).
require('node:v8').setFlagsFromString('--interrupt-budget=256000');
require('./cli-launch.js').launch(require('./cli-load.js').load, require('node:path').join(__dirname, 'cli-job.js'));
`,
  { mode: 0o755 },
);
writeFileSync(
  'dist/cli-job.js',
  `"use strict";
// crd-yaml check worker (scripts/build.mjs, cli/jobs.ts): the program runs the job it is given.
require('./cli-load.js').load().runJob();
`,
);

// The cache is written after a small check ran: it then holds the functions a check compiles, not only
// the top level.
const warm = mkdtempSync(join(tmpdir(), 'crd-yaml-build-'));
try {
  writeFileSync(join(warm, 'crd.yaml'), WARM_UP_CRD);
  writeFileSync(
    join(warm, 'cr.yaml'),
    'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\nspec:\n  size: 20\n  extra: 1\n  host: www.example.com\n  interval: 1m30s\n  schedule: \'*/5 * * * *\'\n---\napiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: Bad_Name\nspec:\n  size: "x"\n',
  );
  // The built-in kinds most repositories hold (their checks are compiled from the cache, not from source).
  writeFileSync(join(warm, 'builtins.yaml'), WARM_UP_BUILTINS);
  rmSync('dist/cli-main.js.cache', { force: true });
  spawnSync(process.execPath, ['dist/cli.js', 'check', '--crd', join(warm, 'crd.yaml'), join(warm, 'cr.yaml'), join(warm, 'builtins.yaml')], { env: { ...process.env, CRD_YAML_BUILD_CODE_CACHE: '1' }, stdio: 'ignore' });
} finally {
  rmSync(warm, { recursive: true, force: true });
}
