// Files imported as text (page templates, the stylesheet): the module is the file's content, as webpack's
// `asset/source` gives it to the bundle.
module.exports = {
  process(source) {
    return { code: `module.exports = ${JSON.stringify(source)};` };
  },
};
