import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sourceFolderEntry, urlProblem } from './sourceEntry';

test('a URL source must be http(s)', () => {
  assert.equal(urlProblem('https://example.com/crds.yaml'), undefined);
  assert.equal(urlProblem(' http://localhost:8080/crds.yaml '), undefined);
  assert.match(String(urlProblem('ftp://example.com/crds.yaml')), /^Only http:\/\/ and https:\/\/ URLs are fetched, not ftp:\/\/$/);
  assert.match(String(urlProblem('example.com/crds.yaml')), /^Not a URL/);
  assert.match(String(urlProblem('')), /^A URL of CRD YAML/);
});

test('a folder source is relative to the first workspace folder when inside it, else absolute', () => {
  assert.equal(sourceFolderEntry('/home/me/project/crds', '/home/me/project'), 'crds');
  assert.equal(sourceFolderEntry('/home/me/project/crds', '/home/me/project/'), 'crds');
  assert.equal(sourceFolderEntry('/home/me/project', '/home/me/project'), '.');
  // A sibling whose name starts like the folder's is outside it.
  assert.equal(sourceFolderEntry('/home/me/project-crds', '/home/me/project'), '/home/me/project-crds');
  assert.equal(sourceFolderEntry('/opt/team/crds', undefined), '/opt/team/crds');
});
