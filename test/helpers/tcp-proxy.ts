/**
 * A TCP forwarder on a fixed local port that can be closed and reopened, to give a test a real
 * database outage (and recovery) without stopping the shared database server. It can also
 * stall: connections stay open (new ones are accepted too) but nothing is forwarded either way
 * until it resumes, which to a client looks exactly like a hung server (SIGSTOP) or a network
 * that stopped delivering.
 */
import net from 'node:net';

export class TcpProxy {
  private server?: net.Server;
  private readonly sockets = new Set<net.Socket>();
  /** While stalled, every chunk waits here (in arrival order) instead of being forwarded. */
  private held: (() => void)[] | undefined;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  async open(port = this.port): Promise<number> {
    this.server = net.createServer((client) => {
      const upstream = net.connect(this.targetPort, this.targetHost);
      for (const s of [client, upstream]) {
        this.sockets.add(s);
        s.on('close', () => {
          this.sockets.delete(s);
          (s === client ? upstream : client).destroy();
        });
        s.on('error', () => s.destroy());
      }
      const forward = (from: net.Socket, to: net.Socket) => {
        from.on('data', (chunk: Buffer) => {
          const write = () => {
            if (!to.destroyed) to.write(chunk);
          };
          if (this.held) this.held.push(write);
          else write();
        });
        from.on('end', () => {
          const end = () => to.end();
          if (this.held) this.held.push(end);
          else end();
        });
      };
      forward(client, upstream);
      forward(upstream, client);
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as net.AddressInfo).port;
    return this.port;
  }

  /** Stops forwarding in both directions; connections stay open and silent. */
  stall(): void {
    this.held ??= [];
  }

  /** Forwards everything held back, in order, and goes on forwarding. */
  resume(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const write of held) write();
  }

  /** Refuses new connections and cuts every open one, like a server going down. */
  async close(): Promise<void> {
    this.held = undefined;
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
  }
}
