/** The tenants face: the registry of businesses by domain, and `serve --tenants`. */
export { normaliseDomain } from './domain-name.js';
export { checkBaseUrl, portableConfig, TenantRegistry } from './registry.js';
export { catalogTenants, directoryTenants } from './source.js';
export type { CatalogEntry, ServedTenant, TenantCatalog, TenantSource } from './source.js';
export { TenantPool } from './pool.js';
export { tenantCost, tenantsShare } from './memory-cost.js';
export type { Tenant } from './registry.js';
export { assembleTenants, startTenantServers } from './serve.js';
export type { AssembledTenants, RunningTenants, TenantMetrics, TenantServeOptions } from './serve.js';
export { UNKNOWN_HOST_MESSAGE } from './router.js';
