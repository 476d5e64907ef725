import http from 'node:http';
import Koa from 'koa';

/** The HTTP ceiling: Koa answering a fixed JSON body, nothing else. */
const app = new Koa();
const body = { id: 'pay_01', object: 'payment', amount: 1000, currency: 'TZS', status: 'paid' };
app.use((ctx) => {
  ctx.body = body;
});
const handle = app.callback();
const server = http.createServer((req, res) => void handle(req, res));
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('ready'));
