// The light entry, `@toolshed/core/contract`: every rule of the plugin contract that can be
// checked without valibot, so the host imports it at start-up and listings stay cheap.
// Nothing here may import valibot (or a module that does) at run time.
export { API_VERSION, SUPPORTED_API_VERSIONS, apiVersionProblem } from './api-version.js';
export { coreVersion } from './core-version.js';
export { ContractError, isContractError } from './contract-error.js';
export { PluginError, isPluginError } from './plugin-error.js';
export type { PluginErrorFields, PluginPhase } from './plugin-error.js';
export { isToolName, SERVER_NAME_PATTERN, TOOL_NAME_PATTERN, TOOL_NAME_RULE } from './name.js';
export { isRecord } from './record.js';
export { brand, hasBrand } from './brand.js';
export { describeThrown } from './thrown.js';
export { checkDefinition, checkTimeout, sameDefinition } from './tool-definition.js';
export type { ToolDefinition } from './tool-definition.js';
export { checkCodeAgainstManifest, checkManifestField, checkManifestFile, manifestOf } from './manifest.js';
export type { BuiltTools, ManifestField, ManifestFile, ManifestTool } from './manifest.js';
export { checkPermissions, NO_PERMISSIONS, resolvePermissions, splitHostPort } from './permissions.js';
export type { NetPermission, PermissionValue, Permissions, ResolvedPermissions } from './permissions.js';
export { formatPath, optionIssues, optionPath } from './issues.js';
export type { OptionIssue } from './issues.js';
export { isEnvReference, resolveEnvReferences } from './env-references.js';
// Also here (besides @toolshed/core/exposure) so the host's config check needs no second file at start-up.
export { exposureProblems } from './exposure.js';
// Tools described by JSON Schema (mounted MCP servers) are built by the light @toolshed/mcp/mount entry.
export { carriedJsonSchema, jsonSchemaInput } from './json-schema-input.js';
export type { JsonSchemaProblem, JsonSchemaValidator } from './json-schema-input.js';
export { isToolError, ToolError } from './tool-error.js';
export { checkPluginShape, pluginFromModule } from './plugin-shape.js';
export { MIN_SECRET_LENGTH, REDACTED, redactDeep, redactor, secretSpellings } from './redact.js';
export type { Redact } from './redact.js';
// Content parts (images, audio, files): the light entry carries them so mcp's mount and the CLI need no valibot.
export { isInlinePart, isLinkedPart, isTextFilePart, PART_NAME_META, PART_TYPES, partBytes } from './content-part.js';
export type { ContentPart, InlinePart, LinkedPart, PartType, TextFilePart } from './content-part.js';
export { isWithParts, withParts } from './with-parts.js';
export type { WithParts } from './with-parts.js';
export { essence, sniffMime } from './magic-bytes.js';
export { outcomeRecord, partRecord } from './part-record.js';
export type { PartRecord } from './part-record.js';
