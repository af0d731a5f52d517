/**
 * bin/crd-yaml, the package's command: it finds the package through npm's links, keeps NODE_EXTRA_CA_CERTS
 * from Node's start-up (CRD_YAML_EXTRA_CA_CERTS), and the program still trusts that file in its own https
 * requests, as Node would have, and gives it back to the processes it starts. A CA made with openssl signs
 * the certificate of an https server on loopback started here.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse } from 'yaml';
import { crdYaml } from '../crd';

const ROOT = path.join(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'crd-yaml');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'crd-yaml-launcher-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

const haveOpenssl = spawnSync('openssl', ['version']).status === 0;
const notBuilt = !fs.existsSync(CLI) && 'dist/cli.js not built (npm run build)';
const skipTls = notBuilt || (!haveOpenssl && 'openssl is not installed');

const CRD = crdYaml(`type: object
properties:
  spec:
    type: object
    properties:
      size: {type: integer, maximum: 10}
`);
const CRD_OBJECT = parse(CRD) as Record<string, unknown>;
// Invalid only against the CRD: a finding on it says the CRD was read.
const CR = 'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {size: 11}\n';
const FINDING = /spec\.size: Invalid value: 11: spec\.size in body should be less than or equal to 10/;

/** The environment of the machine without either variable, plus `extra`. */
function envWith(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  delete env.CRD_YAML_EXTRA_CA_CERTS;
  return { ...env, ...extra };
}

/** Runs a command without blocking this process (the https server answers from it). */
function run(command: string, args: string[], env: NodeJS.ProcessEnv, cwd = dir): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { env, cwd, encoding: 'utf8' }, (e, out, err) => resolve({ code: e ? (typeof e.code === 'number' ? e.code : -1) : 0, out, err }));
  });
}

function openssl(args: string[]): void {
  const r = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
}

let base = '';
let server: https.Server | undefined;
const bearers: string[] = [];

before(() => {
  if (skipTls) return;
  // Two CAs (EC keys: quick to make); the server's certificate for 127.0.0.1 is signed by the first.
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(['req', '-x509', ...ec, '-days', '1', '-subj', '/CN=crd-yaml test CA', '-keyout', 'ca.key', '-out', 'ca.pem']);
  openssl(['req', '-x509', ...ec, '-days', '1', '-subj', '/CN=another CA', '-keyout', 'other.key', '-out', 'other.pem']);
  openssl(['req', '-new', ...ec, '-subj', '/CN=127.0.0.1', '-keyout', 'server.key', '-out', 'server.csr']);
  fs.writeFileSync(path.join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1\n');
  openssl(['x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-days', '1', '-extfile', 'san.ext', '-out', 'server.pem']);
  fs.writeFileSync(path.join(dir, 'cr with spaces.yaml'), CR);
});

before(async () => {
  if (skipTls) return;
  server = https.createServer({ key: fs.readFileSync(path.join(dir, 'server.key')), cert: fs.readFileSync(path.join(dir, 'server.pem')) }, (req, res) => {
    if (req.url?.startsWith('/crds.yaml')) return void res.end(CRD);
    if (req.url?.startsWith('/apis/apiextensions.k8s.io/v1/customresourcedefinitions')) {
      bearers.push(req.headers.authorization ?? '');
      res.setHeader('Content-Type', 'application/json');
      return void res.end(JSON.stringify({ kind: 'CustomResourceDefinitionList', apiVersion: 'apiextensions.k8s.io/v1', metadata: {}, items: [CRD_OBJECT] }));
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(() => server?.close());

/** npm's links: node_modules/.bin/crd-yaml -> ../crd-yaml/bin/crd-yaml (relative), the package a link to this checkout. */
function npmLinked(): string {
  const nm = path.join(dir, 'project', 'node_modules');
  const link = path.join(nm, '.bin', 'crd-yaml');
  if (!fs.existsSync(link)) {
    fs.mkdirSync(path.join(nm, '.bin'), { recursive: true });
    fs.symlinkSync(ROOT, path.join(nm, 'crd-yaml'));
    fs.symlinkSync('../crd-yaml/bin/crd-yaml', link);
  }
  return link;
}

test('bin/crd-yaml: reached through links, runs node on dist/cli.js with the arguments and exit code unchanged and NODE_EXTRA_CA_CERTS moved', { skip: notBuilt }, async () => {
  // A `node` first on PATH that prints what it was given.
  const fake = path.join(dir, 'fake-node');
  fs.mkdirSync(fake, { recursive: true });
  fs.writeFileSync(
    path.join(fake, 'node'),
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's ${VAR-default}, not a template
    '#!/bin/sh\nprintf \'%s\\n\' "NODE_EXTRA_CA_CERTS=${NODE_EXTRA_CA_CERTS-(unset)}" "CRD_YAML_EXTRA_CA_CERTS=${CRD_YAML_EXTRA_CA_CERTS-(unset)}"\nfor a in "$@"; do printf \'arg=%s\\n\' "$a"; done\nexit 7\n',
    { mode: 0o755 },
  );
  // Global installs link from a bin folder (absolute), sometimes through another link.
  const global = path.join(dir, 'global', 'bin');
  fs.mkdirSync(global, { recursive: true });
  fs.symlinkSync(BIN, path.join(global, 'crd-yaml'));
  fs.symlinkSync('crd-yaml', path.join(global, 'crd-yaml-again'));
  const env = (extra: Record<string, string>) => envWith({ ...extra, PATH: `${fake}${path.delimiter}${process.env.PATH}` });
  const args = ['check', 'a file with spaces.yaml', '', 'it\'s "quoted" $HOME *'];
  const shells = [['sh'], ['dash'], ['busybox', 'sh']].filter(([s]) => spawnSync('sh', ['-c', `command -v ${s}`]).status === 0);
  for (const entry of [BIN, npmLinked(), path.join(global, 'crd-yaml'), path.join(global, 'crd-yaml-again')]) {
    for (const shell of [[], ...shells]) {
      const what = `${shell.join(' ')} ${entry}`;
      const r = await run(shell[0] ?? entry, [...shell.slice(1), ...(shell.length ? [entry] : []), ...args], env({ NODE_EXTRA_CA_CERTS: '/etc/corp ca.pem' }));
      assert.equal(r.code, 7, `${what}: ${r.err}`);
      const lines = r.out.split('\n');
      assert.deepEqual(lines.slice(0, 2), ['NODE_EXTRA_CA_CERTS=(unset)', 'CRD_YAML_EXTRA_CA_CERTS=/etc/corp ca.pem'], what);
      const script = lines[2].replace(/^arg=/, '');
      assert.equal(fs.realpathSync(script), fs.realpathSync(CLI), what);
      assert.deepEqual(
        lines.slice(3, -1),
        args.map((a) => `arg=${a}`),
        what,
      );
    }
  }
  // Not set, or empty (Node ignores an empty one): nothing moved.
  let r = await run(BIN, [], env({}));
  assert.deepEqual(r.out.split('\n').slice(0, 2), ['NODE_EXTRA_CA_CERTS=(unset)', 'CRD_YAML_EXTRA_CA_CERTS=(unset)']);
  r = await run(BIN, [], env({ NODE_EXTRA_CA_CERTS: '' }));
  assert.deepEqual(r.out.split('\n').slice(0, 2), ['NODE_EXTRA_CA_CERTS=', 'CRD_YAML_EXTRA_CA_CERTS=(unset)']);
});

test('bin/crd-yaml with NODE_EXTRA_CA_CERTS: a --crd URL signed by that CA is fetched; without it the certificate is refused', { skip: skipTls }, async () => {
  const url = `${base}/crds.yaml`;
  const args = ['check', '--crd', url, 'cr with spaces.yaml'];
  let cache = 0;
  const env = (extra: Record<string, string>) => envWith({ ...extra, CRD_YAML_CACHE: path.join(dir, `cache-${++cache}`) });
  const caFile = path.join(dir, 'ca.pem');
  for (const entry of [BIN, npmLinked()]) {
    const r = await run(entry, args, env({ NODE_EXTRA_CA_CERTS: caFile }));
    assert.equal(r.code, 1, r.err);
    assert.match(r.out + r.err, FINDING);
  }
  // The program alone, as the launcher starts it (Node never read the file): the same.
  let r = await run(process.execPath, [CLI, ...args], env({ CRD_YAML_EXTRA_CA_CERTS: caFile }));
  assert.equal(r.code, 1, r.err);
  assert.match(r.out + r.err, FINDING);
  // dist/cli.js with NODE_EXTRA_CA_CERTS: Node reads the file itself.
  r = await run(process.execPath, [CLI, ...args], env({ NODE_EXTRA_CA_CERTS: caFile }));
  assert.equal(r.code, 1, r.err);
  assert.match(r.out + r.err, FINDING);
  // Without the CA: refused.
  r = await run(BIN, args, env({}));
  assert.notEqual(r.code, 0);
  assert.doesNotMatch(r.out + r.err, FINDING);
  assert.match(r.err, new RegExp(`could not download ${url.replace(/[.?]/g, '\\$&')}: the server's certificate is not trusted \\(UNABLE_TO_VERIFY_LEAF_SIGNATURE`));
  // Another CA in the file: refused too.
  r = await run(BIN, args, env({ NODE_EXTRA_CA_CERTS: path.join(dir, 'other.pem') }));
  assert.match(r.err, /UNABLE_TO_VERIFY_LEAF_SIGNATURE/);
});

test("an extra CA file that cannot be read: Node's warning, once, and the bundled roots alone", { skip: skipTls }, async () => {
  const missing = path.join(dir, 'no such.pem');
  const r = await run(BIN, ['check', '--crd', `${base}/crds.yaml`, '--crd', `${base}/crds.yaml?again`, 'cr with spaces.yaml'], envWith({ NODE_EXTRA_CA_CERTS: missing, CRD_YAML_CACHE: path.join(dir, 'cache-missing') }));
  assert.notEqual(r.code, 0);
  const warnings = r.err.split('\n').filter((l) => l.startsWith('Warning: Ignoring extra certs from'));
  assert.deepEqual(warnings, [`Warning: Ignoring extra certs from \`${missing}\`, load failed: no such file or directory`]);
  assert.equal(r.err.match(/UNABLE_TO_VERIFY_LEAF_SIGNATURE/g)?.length, 2, r.err);
});

test("an extra CA file with a broken certificate: the ones before it are trusted, with Node's warning, once", { skip: skipTls }, async () => {
  const mixed = path.join(dir, 'mixed.pem');
  fs.writeFileSync(mixed, `some text\n${fs.readFileSync(path.join(dir, 'ca.pem'), 'utf8')}-----BEGIN CERTIFICATE-----\nMIIBroken\n-----END CERTIFICATE-----\n${fs.readFileSync(path.join(dir, 'other.pem'), 'utf8')}`);
  const args = ['check', '--crd', `${base}/crds.yaml`, '--crd', `${base}/crds.yaml?again`, 'cr with spaces.yaml'];
  // Node itself (dist/cli.js with NODE_EXTRA_CA_CERTS) and the launcher: the same answer and the same warning.
  const answers = [];
  for (const [command, argv] of [
    [process.execPath, [CLI, ...args]],
    [BIN, args],
  ] as [string, string[]][]) {
    const r = await run(command, argv, envWith({ NODE_EXTRA_CA_CERTS: mixed, CRD_YAML_CACHE: path.join(dir, `cache-mixed-${answers.length}`) }));
    assert.equal(r.code, 1, r.err);
    assert.match(r.out + r.err, FINDING);
    const warnings = r.err.split('\n').filter((l) => l.startsWith('Warning: Ignoring extra certs from'));
    assert.equal(warnings.length, 1, r.err);
    assert.match(warnings[0], /^Warning: Ignoring extra certs from `.*mixed\.pem`, load failed: .+/);
    answers.push(warnings[0]);
  }
  assert.equal(answers[1], answers[0]);
});

test('bin/crd-yaml with NODE_EXTRA_CA_CERTS: a cluster without certificate-authority is trusted through it, its exec plugin gets the variable back; a certificate-authority of its own is used alone', {
  skip: skipTls,
}, async () => {
  const plugin = path.join(dir, 'plugin.js');
  fs.writeFileSync(
    plugin,
    "process.stdout.write(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token: 'extra=' + (process.env.NODE_EXTRA_CA_CERTS ?? '(unset)') } }));\n",
  );
  const kubeconfig = (name: string, cluster: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(
      file,
      `apiVersion: v1\nkind: Config\ncurrent-context: x\ncontexts: [{name: x, context: {cluster: c, user: u}}]\nclusters:\n- name: c\n  cluster: {server: "${base}"${cluster}}\nusers:\n- name: u\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: ${JSON.stringify(process.execPath)}\n      args: [${JSON.stringify(plugin)}]\n      interactiveMode: Never\n`,
    );
    return file;
  };
  const caFile = path.join(dir, 'ca.pem');
  const env = envWith({ NODE_EXTRA_CA_CERTS: caFile });
  bearers.length = 0;
  let r = await run(BIN, ['check', '--cluster', '--kubeconfig', kubeconfig('kubeconfig', ''), 'cr with spaces.yaml'], env);
  assert.equal(r.code, 1, r.err);
  assert.match(r.out + r.err, FINDING);
  assert.deepEqual(bearers, [`Bearer extra=${caFile}`]);
  // Its own certificate-authority (another CA): Node would not add the extra file to it; neither does crd-yaml.
  bearers.length = 0;
  r = await run(BIN, ['check', '--cluster', '--kubeconfig', kubeconfig('kubeconfig-other', ', certificate-authority: other.pem'), 'cr with spaces.yaml'], env);
  assert.notEqual(r.code, 0);
  assert.match(r.err, /--cluster: the certificate of https:\/\/127\.0\.0\.1:\d+ was not accepted \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)/);
  assert.deepEqual(bearers, []);
});

test('bin/crd-yaml: the exit codes of the program (0, 1 findings, 2 usage)', { skip: notBuilt }, async () => {
  fs.writeFileSync(path.join(dir, 'crd.yaml'), CRD);
  fs.writeFileSync(path.join(dir, 'ok.yaml'), CR.replace('11', '3'));
  fs.writeFileSync(path.join(dir, 'bad.yaml'), CR);
  const env = envWith({});
  assert.equal((await run(BIN, ['check', '--crd', 'crd.yaml', 'ok.yaml'], env)).code, 0);
  assert.equal((await run(BIN, ['check', '--crd', 'crd.yaml', 'bad.yaml'], env)).code, 1);
  assert.equal((await run(BIN, ['check', '--no-such-flag'], env)).code, 2);
});

test('the program is compiled from its code cache: V8 accepts dist/cli-main.js.cache under the flags dist/cli.js sets, by bin/crd-yaml and by node dist/cli.js', { skip: notBuilt }, async () => {
  fs.writeFileSync(path.join(dir, 'ok.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n');
  const env = envWith({ CRD_YAML_REPORT_CODE_CACHE: '1' });
  for (const [command, args] of [
    [BIN, ['check', 'ok.yaml']],
    [process.execPath, [CLI, 'check', 'ok.yaml']],
  ] as const) {
    const r = await run(command, [...args], env);
    assert.equal(r.code, 0, r.err);
    // A cache made under other V8 flags (the build's warm-up run) is rejected: every start then compiles 1.2 MB.
    assert.match(r.err, /crd-yaml: code cache accepted/, `${command}: ${r.err}`);
  }
});
