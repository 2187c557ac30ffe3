export { parseFormSchema, sensitiveFields } from './schema';
export { submission } from './submission';
export { useSchemaForm } from './use-schema-form';
export { SchemaFields } from './SchemaFields';
export { loadSchemaForm } from './load';
