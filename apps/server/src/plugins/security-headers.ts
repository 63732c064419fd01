import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { MaterialStorageConfig } from '../config.ts';

export interface SecurityHeaderOptions {
  /** PUBLIC_URL: on https, HSTS is sent and insecure subresource URLs are upgraded. */
  publicUrl: string;
  /** The built web app; its index.html's inline scripts are allowed by hash. */
  webDist: string;
  storage: MaterialStorageConfig;
}

/**
 * Hashes ('sha256-…') of the inline scripts of the built index.html (the theme set before the
 * first paint), re-read when the file changes: the web app is served from disk per request, so a
 * rebuild needs no restart, and its hashes must follow.
 */
function inlineScriptHashes(webDist: string): () => string[] {
  const file = path.join(webDist, 'index.html');
  let cached: { mtimeMs: number; hashes: string[] } | undefined;
  return () => {
    let mtimeMs: number;
    try {
      mtimeMs = fs.statSync(file).mtimeMs;
    } catch {
      return [];
    }
    if (cached?.mtimeMs !== mtimeMs) {
      const html = fs.readFileSync(file, 'utf8');
      const hashes = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)].map((m) => `'sha256-${createHash('sha256').update(m[1]!, 'utf8').digest('base64')}'`);
      cached = { mtimeMs, hashes };
    }
    return cached.hashes;
  };
}

/**
 * Security headers on every answer (@fastify/helmet): a Content-Security-Policy fit for the
 * built SPA, nosniff, no framing, no referrer, and HSTS when PUBLIC_URL is https. The OpenAPI
 * pages under /api/docs send their own policy (@fastify/swagger-ui's `staticCSP`, adjusted by
 * `docsCsp` below), since they run inline scripts of their own.
 */
export async function registerSecurityHeaders(app: FastifyInstance, opts: SecurityHeaderOptions) {
  const https = opts.publicUrl.startsWith('https:');
  const hashes = inlineScriptHashes(opts.webDist);
  // Material files are streamed through /api/material/*; a storage that answers with presigned
  // URLs of its endpoint (S3, MinIO) would have the browser load from there.
  const storageOrigin = opts.storage.kind === 's3' && opts.storage.endpoint ? [new URL(opts.storage.endpoint).origin] : opts.storage.kind === 's3' ? ['https://*.amazonaws.com'] : [];
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        baseUri: ["'self'"],
        // The bundle, the inline theme script of index.html by hash, and WebAssembly (hash-wasm
        // computes upload md5s); 'wasm-unsafe-eval' allows compiling wasm, not JavaScript eval.
        scriptSrc: ["'self'", "'wasm-unsafe-eval'", () => hashes().join(' ')],
        scriptSrcAttr: ["'none'"],
        // antd's CSS-in-JS writes <style> elements at run time.
        styleSrc: ["'self'", "'unsafe-inline'"],
        // Drama covers, product pictures and page pictures come from the sites and the platform's CDNs.
        imgSrc: ["'self'", 'data:', 'blob:', 'https:', 'http:', ...storageOrigin],
        mediaSrc: ["'self'", 'blob:', ...storageOrigin],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(https && { upgradeInsecureRequests: [] }),
      },
    },
    hsts: https ? { maxAge: 365 * 24 * 3600, includeSubDomains: false } : false,
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
    // The OAuth dialog is opened by navigating away, never as a popup that reports back.
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    crossOriginResourcePolicy: { policy: 'same-origin' },
  });
}

/**
 * The OpenAPI pages' own policy (swagger-ui's), with framing refused, no upgrade on plain http,
 * and inline styles allowed (swagger-ui writes a <style> element at run time).
 */
export function docsCsp(publicUrl: string) {
  const https = publicUrl.startsWith('https:');
  return (header: string) => {
    let csp = header.replace("frame-ancestors 'self'", "frame-ancestors 'none'");
    // A hash in style-src would make browsers ignore 'unsafe-inline': the source list is rewritten whole.
    csp = csp.replace(/style-src [^;]*/, "style-src 'self' https: 'unsafe-inline'");
    if (!https) csp = csp.replace(/\s*upgrade-insecure-requests;?/, '');
    return csp;
  };
}
