'use strict';
// Issue 5: per-message cost of what deliverability adds to a send: rewriting a newsletter's links
// into signed click redirects plus the open pixel (a real HTML tokenizer, not regexes), the
// MARKETING footer, and verifying one SNS message signature (RSA, certificate already cached).
// Pure CPU in this process, so the mode column reads "cpu".
const { createSign, generateKeyPairSync, randomUUID } = require('node:crypto');
const { join } = require('node:path');

function newsletter(links) {
  const row =
    '<tr><td style="padding:12px 24px;font-family:Helvetica,Arial,sans-serif;font-size:15px;color:#333">' +
    'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore.</td></tr>\n';
  let body = '<!doctype html><html><head><meta charset="utf-8"></head><body><table width="100%">';
  for (let i = 0; body.length < 30 * 1024; i++) {
    body += row;
    if (i % 3 === 0 && i / 3 < links) body += `<tr><td><a href="https://example.com/articles/${i}?utm_source=mail&amp;utm_medium=email" style="color:#06c">Read more</a></td></tr>\n`;
  }
  return body + '<tr><td><a href="mailto:help@example.com">Help</a></td></tr></table></body></html>';
}

/** @param {import('../lib').Ctx} ctx */
async function run(ctx) {
  const { measure, row, ROOT } = ctx;
  const { instrumentHtml, isTrackableUrl } = require(join(ROOT, 'dist', 'modules', 'emails', 'marks', 'html-instrument.js'));
  const { clickPath, openPixelPath } = require(join(ROOT, 'dist', 'modules', 'emails', 'marks', 'tracking-links.js'));
  const { footerHtml } = require(join(ROOT, 'dist', 'modules', 'emails', 'marks', 'recipient-footer.js'));
  const { verifySnsSignature, canonicalString } = require(join(ROOT, 'dist', 'modules', 'deliverability', 'inbound', 'sns-message.js'));

  const secret = 'b'.repeat(64);
  const base = 'https://mail.example.com';
  const html = newsletter(20);
  const n = ctx.quick ? 300 : 2000;
  const instrument = (emailId) =>
    instrumentHtml(html, {
      rewriteLink: (href) => (isTrackableUrl(href) ? base + clickPath(secret, emailId, href) : null),
      beforeBodyEnd:
        footerHtml({ locale: 'en', projectName: 'Acme', unsubscribeUrl: `${base}/u/x`, manageUrl: `${base}/m/x` }) +
        `<img src="${base}${openPixelPath(secret, emailId)}" width="1" height="1" alt="">`,
    });
  for (let w = 0; w < 100; w++) instrument(randomUUID());
  let out = '';
  const tracked = await measure(() => {
    out = instrument(randomUUID());
  }, n);
  const wrapped = (out.match(/\/t\/c\//g) || []).length;
  if (wrapped !== 20) throw new Error(`expected 20 wrapped links, got ${wrapped}`);

  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' } });
  const message = {
    Type: 'Notification',
    MessageId: randomUUID(),
    TopicArn: 'arn:aws:sns:us-east-1:1:ses',
    Message: JSON.stringify({ notificationType: 'Bounce', bounce: { bounceType: 'Permanent' }, mail: { messageId: randomUUID() } }),
    Timestamp: new Date().toISOString(),
    SignatureVersion: '2',
    SigningCertURL: 'https://sns.us-east-1.amazonaws.com/x.pem',
    Signature: '',
  };
  message.Signature = createSign('RSA-SHA256').update(canonicalString(message)).sign(privateKey, 'base64');
  const verified = await measure(() => {
    if (!verifySnsSignature(message, publicKey)) throw new Error('signature did not verify');
  }, ctx.quick ? 300 : 2000);

  ctx.log(`newsletter ${Math.round(html.length / 1024)} KB with 20 links, ${n} samples`);
  return [
    row('tracking: wrap 20 links + pixel + footer p50 (30 KB HTML)', 'cpu', tracked.p50, 'ms', { max: 5 }),
    row('tracking: wrap 20 links + pixel + footer p99', 'cpu', tracked.p99, 'ms'),
    row('SNS signature verification p50 (RSA-2048, SHA256)', 'cpu', verified.p50, 'ms', { max: 2 }),
  ];
}

module.exports = { run };
