import { expect } from 'chai';
import { argumentsToFields, offeredOptions, optionProperties, toolInput } from '../../api/mcp/mcp-tool-inputs.js';
import { bool } from '../../api/options/param-kinds.js';
import { CAPTURE_OPTIONS, CREATE_PARAMS } from '../../api/options/create-params.js';
import { collectParams } from '../../api/options/read-params.js';
import type { FieldErrors } from '../../core/errors.js';

describe('MCP tool inputs: derived from the option table (api/mcp/mcp-tool-inputs.ts)', () => {
  it('a new option of the table is a new tool argument with its schema, default and description, and nothing else is needed', () => {
    const table = { ...CAPTURE_OPTIONS, grayscale: { param: bool('render in shades of grey'), default: false } };
    const properties = optionProperties([], table);
    expect(properties.grayscale).to.deep.equal({ type: 'boolean', description: 'render in shades of grey', default: false });
    expect(Object.keys(properties)).to.deep.equal([...offeredOptions(CAPTURE_OPTIONS), 'grayscale']);
  });

  it('offers every option but the url (each tool has its own), the outputs the tools do not answer and apps', () => {
    const offered = offeredOptions();
    for (const name of ['url', 'html', 'pdf', 'pdf_format', 'pdf_margin_top', 'video', 'video_fps', 'apps']) expect(offered, name).to.not.include(name);
    for (const name of ['browser', 'size', 'screen_width', 'device_name', 'wait_for', 'hide_selector', 'markdown_mode']) expect(offered, name).to.include(name);
    expect(optionProperties(['size']).size).to.equal(undefined);
  });

  it("each offered option's default, passed back as an argument, is read by the create readers without a complaint", () => {
    const schema = toolInput({}, [], optionProperties());
    for (const [name, property] of Object.entries(schema.properties as Record<string, { default?: unknown }>)) {
      if (property.default === undefined) continue;
      const { fields, unknown } = argumentsToFields({ [name]: property.default }, schema);
      expect(unknown).to.deep.equal([]);
      const problems: FieldErrors = {};
      collectParams(CREATE_PARAMS, fields, problems);
      expect(problems, name).to.deep.equal({});
    }
  });

  it('turns JSON arguments into the query values the readers take, and names the arguments the schema does not declare', () => {
    const schema = toolInput({ url: { type: 'string' } }, ['url'], optionProperties());
    const { fields, unknown } = argumentsToFields({ url: 'https://a.example/', dark: true, delay: 2, hide_selector: ['.a', '.b'], brwser: 'x', cookie: null }, schema);
    expect({ ...fields }).to.deep.equal({ url: ['https://a.example/'], dark: ['true'], delay: ['2'], hide_selector: ['.a', '.b'] });
    expect(unknown).to.deep.equal(['brwser']);
    const read: FieldErrors = {};
    expect(collectParams(CREATE_PARAMS, fields, read)).to.include({ dark: true, delay: 2 });
    expect(read).to.deep.equal({});
  });
});
