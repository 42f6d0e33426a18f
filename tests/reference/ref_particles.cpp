// Sequential reference for tests/e2e/programs/particles.it: n particles at i * 1.5 with mass
// 1 + i % 3, those with i % 7 == 3 not alive; each step the live ones accelerate toward the centre
// of mass of the live ones. Writes the positions and the last centre (a 1-element array).
// Arguments: n=... steps=... dt=... output_file=... centre_file=... (p=... is ignored).
#include <vector>

#include "ref_common.h"

namespace {
struct Particle {
  double position, velocity, mass;
  bool alive;
};
}  // namespace

int main(int argc, char** argv) {
  return itref::run_main("ref_particles", argc, argv, [](const itref::Args& args) {
    const long long n = args.integer("n"), steps = args.integer("steps");
    const double dt = args.real("dt");
    std::vector<Particle> ps;
    for (long long i = 0; i < n; ++i) ps.push_back({i * 1.5, 0.0, 1.0 + static_cast<double>(i % 3), i % 7 != 3});
    double centre = 0;
    for (long long s = 0; s < steps; ++s) {
      double weighted = 0, mass = 0;
      for (const Particle& p : ps)
        if (p.alive) {
          weighted += p.position * p.mass;
          mass += p.mass;
        }
      centre = weighted / mass;
      for (Particle& p : ps)
        if (p.alive) {
          p.velocity += (centre - p.position) * dt;
          p.position += p.velocity * dt;
        }
    }
    std::vector<double> positions;
    for (const Particle& p : ps) positions.push_back(p.position);
    itref::write_data(args.str("output_file"), itref::make_array<double>({positions.size()}, positions));
    itref::write_data(args.str("centre_file"), itref::make_array<double>({1}, {centre}));
  });
}
