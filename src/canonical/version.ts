/**
 * The fixture schema version: the version of the canonical form (what is hashed) and of the
 * file format. It is part of what is hashed from version 2 on, so two versions' fixtures for
 * the same call never share a name. Version history (docs/upgrading.md):
 * - 1 (langchain-vcr 0.1.0): hash = sha256 of canonicalJson({ kind, request }).
 * - 2: hash = sha256 of canonicalJson({ kind, request, version: 2 }); JSON-schema values that
 *   cannot change what a model does are dropped (./inert.ts); stream chunks stored compactly.
 */
export const SCHEMA_VERSION = 2;
