// Nx's resolver, except for stylesheets: those are imported as text (the public pages' one), not as style modules.
const nxResolver = require('@nx/jest/plugins/resolver');

module.exports = (request, options) => (request.endsWith('.css') ? options.defaultResolver(request, options) : nxResolver(request, options));
