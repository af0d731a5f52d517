/** Language server entry point: placeholder until the LSP layer lands. */
console.error('crd-yaml server: not implemented yet');
