// Page templates and the stylesheet are imported as text (webpack's `asset/source` in the bundle, a transform in
// jest): the same for tools that load the application from its sources (`node -r ./tools/scripts/text-files.cjs`).
const { readFileSync } = require('node:fs');

for (const extension of ['.eta', '.css']) {
  require.extensions[extension] = (module, filename) => {
    module.exports = readFileSync(filename, 'utf8');
  };
}
