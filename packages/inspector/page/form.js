// A form for a tool's input, made from its JSON Schema: objects, arrays, enums, unions and
// optional fields. Each field reads back as {present, value}; an optional field left
// unticked is left out, as a model leaves it out.

/**
 * The parts of a JSON Schema the form reads.
 * @typedef {{
 *   type?: string | string[], enum?: unknown[], const?: unknown, anyOf?: Schema[], oneOf?: Schema[],
 *   properties?: Record<string, Schema>, required?: string[], items?: Schema,
 *   title?: string, description?: string, default?: unknown,
 * }} Schema
 */
/** @typedef {{ element: HTMLElement, read: () => unknown }} Control */
/** @typedef {Node | string | undefined | null} Child */

/**
 * An element with attributes and children; text is always set as text, never parsed as HTML.
 * `style` is an object of CSS properties; any other attribute is set as a string (true as present).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, unknown>} [attributes]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (key === 'text') node.textContent = String(value);
    // Through the CSSOM: the page's content security policy refuses style attributes in markup.
    else if (key === 'style')
      for (const [name, css] of Object.entries(/** @type {Record<string, string>} */ (value))) node.style.setProperty(name, css);
    else node.setAttribute(key, value === true ? '' : String(value));
  }
  for (const child of children.flat()) if (child !== undefined && child !== null) node.append(child);
  return node;
}

/** @param {Schema} schema */
function typeOf(schema) {
  if (Array.isArray(schema.enum)) return 'enum';
  if ('const' in schema) return 'const';
  if (Array.isArray(schema.anyOf ?? schema.oneOf)) return 'union';
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  if (type) return type;
  if (schema.properties) return 'object';
  return 'json';
}

/**
 * @param {Schema} schema
 * @param {number} index
 */
function labelOf(schema, index) {
  if (schema.title) return schema.title;
  const type = typeOf(schema);
  if (type === 'array') return `list of ${typeOf(schema.items ?? {})}`;
  if (type === 'const') return JSON.stringify(schema.const);
  return type === 'json' ? `option ${index + 1}` : type;
}

/** @type {(value: unknown) => Control} */
const fixed = (value) => ({ element: el('code', { text: JSON.stringify(value) }), read: () => value });

/**
 * @param {Schema} schema
 * @param {string} name
 * @param {string} type
 * @returns {Control}
 */
function scalar(schema, name, type) {
  if (type === 'boolean') {
    const input = el('input', { type: 'checkbox', name, checked: schema.default === true });
    return { element: input, read: () => input.checked };
  }
  if (type === 'number' || type === 'integer') {
    const input = el('input', { type: 'number', name, step: type === 'integer' ? 1 : 'any', value: schema.default });
    return { element: input, read: () => (input.value === '' ? undefined : Number(input.value)) };
  }
  if (type === 'enum') {
    const select = el(
      'select',
      { name },
      (schema.enum ?? []).map((value) => el('option', { value: JSON.stringify(value), text: String(value) })),
    );
    return { element: select, read: () => JSON.parse(select.value) };
  }
  const input = el('textarea', { name, rows: 1 });
  if (typeof schema.default === 'string') input.value = schema.default;
  return { element: input, read: () => input.value };
}

/**
 * @param {Schema} schema
 * @param {string} name
 * @returns {Control}
 */
function object(schema, name) {
  const required = new Set(schema.required ?? []);
  const fields = Object.entries(schema.properties ?? {}).map(
    ([key, property]) => /** @type {const} */ ([key, field(property, key, required.has(key), name ? `${name}.${key}` : key)]),
  );
  const element = el(
    'fieldset',
    { 'data-path': name || undefined },
    name ? el('legend', { text: name }) : undefined,
    fields.map(([, f]) => f.element),
  );
  return {
    element,
    read: () => {
      /** @type {Record<string, unknown>} */
      const value = {};
      for (const [key, f] of fields) {
        const read = f.read();
        if (read.present) value[key] = read.value;
      }
      return value;
    },
  };
}

/**
 * @param {Schema} schema
 * @param {string} name
 * @returns {Control}
 */
function array(schema, name) {
  /** @type {Control[]} */
  const items = [];
  const list = el('ol');
  const add = el('button', { type: 'button', text: `Add to ${name || 'list'}` });
  add.addEventListener('click', () => {
    const item = control(schema.items ?? {}, `${name}[${items.length}]`);
    const remove = el('button', { type: 'button', text: 'Remove' });
    const row = el('li', {}, item.element, remove);
    items.push(item);
    remove.addEventListener('click', () => {
      items.splice(items.indexOf(item), 1);
      row.remove();
    });
    list.append(row);
  });
  return { element: el('div', { class: 'array' }, list, add), read: () => items.map((item) => item.read()) };
}

/**
 * @param {Schema} schema
 * @param {string} name
 * @returns {Control}
 */
function union(schema, name) {
  const variants = schema.anyOf ?? schema.oneOf ?? [];
  const select = el(
    'select',
    { 'aria-label': `${name} is` },
    variants.map((variant, index) => el('option', { value: index, text: labelOf(variant, index) })),
  );
  const holder = el('div');
  /** @type {Control} */
  let current = fixed(undefined);
  const show = () => {
    current = control(variants[Number(select.value)], name);
    holder.replaceChildren(current.element);
  };
  select.addEventListener('change', show);
  show();
  return { element: el('div', { class: 'union' }, select, holder), read: () => current.read() };
}

/**
 * @param {string} name
 * @returns {Control}
 */
function json(name) {
  const input = el('textarea', { name, rows: 2, placeholder: 'any JSON value' });
  return { element: input, read: () => JSON.parse(input.value || 'null') };
}

/**
 * One value of a schema: {element, read() → value}.
 * @param {Schema} schema
 * @param {string} name
 * @returns {Control}
 */
export function control(schema, name) {
  const type = typeOf(schema);
  if (type === 'object') return object(schema, name);
  if (type === 'array') return array(schema, name);
  if (type === 'union') return union(schema, name);
  if (type === 'const') return fixed(schema.const);
  if (type === 'json') return json(name);
  return scalar(schema, name, type);
}

/** A named property: its label, its description, and for an optional one a tick to include it. */
/**
 * @param {Schema} schema
 * @param {string} key
 * @param {boolean} required
 * @param {string} path
 * @returns {{ element: HTMLElement, read: () => { present: false } | { present: true, value: unknown } }}
 */
function field(schema, key, required, path) {
  const inner = control(schema, path);
  const include = required ? undefined : el('input', { type: 'checkbox', 'aria-label': `include ${path}` });
  const label = el('label', {}, el('span', { text: `${key}${required ? ' *' : ''}` }), inner.element);
  const hint = schema.description ? el('span', { class: 'hint', text: schema.description }) : undefined;
  // A nested object labels itself with its legend.
  const body = inner.element.tagName === 'FIELDSET' ? inner.element : label;
  const element = el('div', { class: 'field', 'data-field': path }, include, body, hint);
  if (include) {
    const sync = () => body.classList.toggle('excluded', !include.checked);
    include.addEventListener('change', sync);
    // Typing into an optional field includes it.
    body.addEventListener('input', () => {
      include.checked = true;
      sync();
    });
    sync();
  }
  return { element, read: () => (include && !include.checked ? { present: false } : { present: true, value: inner.read() }) };
}

/**
 * The whole input form for a tool's input schema.
 * @param {unknown} schema
 * @returns {Control}
 */
export function inputForm(schema) {
  return control(schema && typeof schema === 'object' ? /** @type {Schema} */ (schema) : { type: 'object' }, '');
}
