'use strict';
// DKIM signing cost per message (issue 5's "Done when"): nodemailer building a typical ~20 KB
// HTML message with and without an RSA-2048 DKIM signature; the difference is the signing cost.
// Pure CPU in this process, so the mode column reads "cpu".
const { generateKeyPairSync } = require('node:crypto');
const nodemailer = require('nodemailer');

function typicalMessage() {
  const paragraph = '<p>Hello {{name}}, here is what happened this week in your account. ' + 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(4) + '</p>\n';
  const html = `<!doctype html><html><body>${paragraph.repeat(Math.ceil(16_000 / paragraph.length))}<a href="https://example.com/x">Open</a></body></html>`;
  const text = html.replace(/<[^>]+>/g, '').slice(0, 4_000);
  return { from: 'News <news@bench.example.com>', to: 'reader@example.org', subject: 'Your weekly summary', html, text };
}

/** @param {import('../lib').Ctx} ctx */
async function run(ctx) {
  const { measure, row } = ctx;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'der' } });
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  const message = typicalMessage();
  const dkim = { domainName: 'bench.example.com', keySelector: 'mr0001', privateKey };
  const n = ctx.quick ? 100 : 400;

  let size = 0;
  const plain = await measure(async () => {
    const info = await transport.sendMail(message);
    size = info.message.length;
  }, n);
  const signed = await measure(async () => {
    const info = await transport.sendMail({ ...message, dkim });
    if (!info.message.includes('DKIM-Signature')) throw new Error('message was not signed');
  }, n);
  ctx.log(`message ${Math.round(size / 1024)} KB, ${n} samples`);

  return [
    row('message size (MIME, html + text)', 'cpu', Math.round(size / 1024), 'KB'),
    row('build message, no DKIM p50', 'cpu', plain.p50, 'ms'),
    row('build + DKIM sign (RSA-2048) p50', 'cpu', signed.p50, 'ms', { max: 20 }),
    row('build + DKIM sign (RSA-2048) p99', 'cpu', signed.p99, 'ms'),
    row('DKIM signing cost per message p50', 'cpu', Math.max(0, signed.p50 - plain.p50), 'ms', { max: 10 }),
  ];
}

module.exports = { run };
