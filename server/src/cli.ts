/** crd-yaml command line: placeholder until the CLI lands. */
console.error('crd-yaml: not implemented yet');
process.exitCode = 2;
