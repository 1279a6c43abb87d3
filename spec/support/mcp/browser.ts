/**
 * A stand-in for the user's browser in sign-in tests (shiro runs it as `$BROWSER <url>`): follows
 * the authorization server's redirect back to shiro's loopback callback, as a browser would, and
 * appends the URL it was given to the file in BROWSER_LOG when that is set.
 */
import { appendFileSync } from "node:fs";

const url = process.argv[2]!;
if (process.env.BROWSER_LOG) appendFileSync(process.env.BROWSER_LOG, url + "\n");
const response = await fetch(url, { redirect: "follow" });
await response.text();
