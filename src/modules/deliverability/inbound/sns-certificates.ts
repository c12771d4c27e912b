import { LRUCache } from 'lru-cache';
import { Injectable } from '@nestjs/common';
import { X509Certificate } from 'node:crypto';
import type { AppConfig } from '../../../config/config';
import { InjectConfig } from '../../../config/config.module';
import { logger } from '../../../platform/logging/logger';
import { hostMatches } from './sns-message';

const log = logger('sns');
const CACHE_MAX = 50;
const CACHE_TTL_MS = 24 * 3_600_000;
const FETCH_TIMEOUT_MS = 5_000;
const MAX_CERT_BYTES = 64 * 1024;

/** Fetches SNS signing certificates (and confirmation URLs) only from the configured hosts. */
@Injectable()
export class SnsCertificates {
  private readonly cache = new LRUCache<string, string>({ max: CACHE_MAX, ttl: CACHE_TTL_MS });

  constructor(@InjectConfig() private readonly config: AppConfig) {}

  /** The URL when it is https (http only if allowed for tests) on an allowed host without credentials. */
  allowedUrl(raw: string): URL | null {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return null;
    }
    const schemeOk = url.protocol === 'https:' || (url.protocol === 'http:' && this.config.snsCertAllowHttp);
    if (!schemeOk || url.username || url.password) return null;
    return hostMatches(url.hostname.replace(/^\[|\]$/g, ''), this.config.snsCertHosts) ? url : null;
  }

  /** The PEM at an allowed URL, cached until it expires; null when unreachable or not a current certificate. */
  async certificate(url: URL): Promise<string | null> {
    const key = url.toString();
    const cached = this.cache.get(key);
    if (cached) return cached;
    try {
      const res = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
      if (!res.ok) return null;
      const pem = await res.text();
      if (pem.length > MAX_CERT_BYTES) return null;
      const cert = new X509Certificate(pem);
      const now = Date.now();
      const notAfter = Date.parse(cert.validTo);
      if (Date.parse(cert.validFrom) > now || notAfter < now) return null;
      this.cache.set(key, pem, { ttl: Math.min(CACHE_TTL_MS, notAfter - now) });
      return pem;
    } catch (error) {
      log.warn({ err: error, url: key }, 'fetching the SNS signing certificate failed');
      return null;
    }
  }

  /** Visits a SubscribeURL (already checked with `allowedUrl`); returns the HTTP status. */
  async confirm(url: URL): Promise<number> {
    const res = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
    await res.arrayBuffer();
    return res.status;
  }
}
