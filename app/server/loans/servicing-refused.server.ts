/** A servicing request refused for a reason the caller shows as is (400 bad input, 404 unknown, 409 the record's state). */
export class ServicingRefused extends Error {
  constructor(
    readonly status: 400 | 404 | 409,
    message: string,
  ) {
    super(message);
    this.name = "ServicingRefused";
  }
}
