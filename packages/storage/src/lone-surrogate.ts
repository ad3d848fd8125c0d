/**
 * A UTF-16 surrogate without its pair: JSON can carry it (`"\ud800"`), but it is not Unicode text. UTF-8
 * cannot encode it (PostgreSQL refuses it; elsewhere it silently becomes U+FFFD), so request input holding
 * one is refused before anything runs, on every driver.
 */
export const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
