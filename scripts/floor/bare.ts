// The start-up floor: a compiled Bun program that prints a version and exits.
console.log("0.0.0");
