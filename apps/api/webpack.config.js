const { NxAppWebpackPlugin } = require('@nx/webpack/app-plugin');
const { join } = require('path');

// `nx run api:build` runs webpack-cli with this file (the @nx/webpack/plugin inferred target): one bundle of the
// workspace's code in dist/apps/api/main.js; packages from node_modules stay external and are required at run time.
module.exports = {
  output: { path: join(__dirname, '../../dist/apps/api') },
  // Page templates and the site's stylesheet are part of the bundle, as text.
  module: { rules: [{ test: /\.(eta|css)$/, type: 'asset/source' }] },
  plugins: [
    new NxAppWebpackPlugin({
      target: 'node',
      compiler: 'tsc',
      main: './src/main.ts',
      tsConfig: './tsconfig.app.json',
      optimization: false,
      outputHashing: 'none',
      generatePackageJson: false,
      sourceMap: true,
    }),
  ],
};
