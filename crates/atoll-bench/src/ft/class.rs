//! FT's problem classes, NPB's published verification checksums and its Mop/s formula.

use atoll::prelude::*;
use num_complex::Complex64;

/// One problem class.
#[derive(Clone, Copy, Debug)]
pub struct Class {
    /// `S`, `W`, `A` or `B`.
    pub name: char,
    /// Grid extents (x varies fastest).
    pub nx: usize,
    /// Grid extent in y.
    pub ny: usize,
    /// Grid extent in z.
    pub nz: usize,
    /// Time steps.
    pub niter: usize,
    /// NPB's checksum after each step, (re, im).
    pub sums: &'static [(f64, f64)],
}

const S: &[(f64, f64)] = &[
    (5.546087004964e2, 4.845363331978e2),
    (5.546385409189e2, 4.865304269511e2),
    (5.546148406171e2, 4.883910722336e2),
    (5.545423607415e2, 4.901273169046e2),
    (5.544255039624e2, 4.917475857993e2),
    (5.542683411902e2, 4.932597244941e2),
];

const W: &[(f64, f64)] = &[
    (5.673612178944e2, 5.293246849175e2),
    (5.631436885271e2, 5.282149986629e2),
    (5.594024089970e2, 5.270996558037e2),
    (5.560698047020e2, 5.260027904925e2),
    (5.530898991250e2, 5.249400845633e2),
    (5.504159734538e2, 5.239212247086e2),
];

const A: &[(f64, f64)] = &[
    (5.046735008193e2, 5.114047905510e2),
    (5.059412319734e2, 5.098809666433e2),
    (5.069376896287e2, 5.098144042213e2),
    (5.077892868474e2, 5.101336130759e2),
    (5.085233095391e2, 5.104914655194e2),
    (5.091487099959e2, 5.107917842803e2),
];

const B: &[(f64, f64)] = &[
    (5.177643571579e2, 5.077803458597e2),
    (5.154521291263e2, 5.088249431599e2),
    (5.146409228649e2, 5.096208912659e2),
    (5.142378756213e2, 5.101023387619e2),
    (5.139626667737e2, 5.103976610617e2),
    (5.137423460082e2, 5.105948019802e2),
    (5.135547056878e2, 5.107404165783e2),
    (5.133910925466e2, 5.108576573661e2),
    (5.132470705390e2, 5.109577278523e2),
    (5.131197729984e2, 5.110460304483e2),
    (5.130070319283e2, 5.111252433800e2),
    (5.129070537032e2, 5.111968077718e2),
    (5.128182883502e2, 5.112616233064e2),
    (5.127393733383e2, 5.113203605551e2),
    (5.126691062020e2, 5.113735928093e2),
    (5.126064276004e2, 5.114218460548e2),
    (5.125504076570e2, 5.114656139760e2),
    (5.125002331720e2, 5.115053595966e2),
    (5.124551951846e2, 5.115415130407e2),
    (5.124146770029e2, 5.115744692211e2),
];

impl Class {
    /// The class named `s` (`S`, `W`, `A`, `B`, any case).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for another name.
    pub fn parse(s: &str) -> Result<Class> {
        let (name, nx, ny, nz, niter, sums) = match s.to_ascii_uppercase().as_str() {
            "S" => ('S', 64, 64, 64, 6, S),
            "W" => ('W', 128, 128, 32, 6, W),
            "A" => ('A', 256, 256, 128, 6, A),
            "B" => ('B', 512, 256, 256, 20, B),
            other => {
                return Err(Error::InvalidArgument(format!("ft: unknown class {other:?} (S, W, A or B)")));
            }
        };
        Ok(Class { name, nx, ny, nz, niter, sums })
    }

    /// Grid points.
    pub fn ntotal(&self) -> usize {
        self.nx * self.ny * self.nz
    }

    /// NPB's verification: one checksum per step, each within a relative error of 1e-12 of
    /// the published value (a NaN fails).
    pub fn verify(&self, got: &[Complex64]) -> bool {
        got.len() == self.sums.len()
            && got.iter().zip(self.sums).all(|(g, &(re, im))| {
                let r = Complex64::new(re, im);
                let err = ((g - r) / r).norm();
                err <= 1e-12 // false for NaN
            })
    }

    /// Mop/s as NPB computes them for a run of `seconds` (its operation count, with the
    /// constants in single precision as in its Fortran source).
    pub fn mops(&self, seconds: f64) -> f64 {
        let n = self.ntotal() as f64;
        let c = |x: f32| f64::from(x);
        let ops = n * (c(14.8157) + c(7.19641) * n.ln() + (c(5.23518) + c(7.21113) * n.ln()) * self.niter as f64);
        if seconds > 0.0 {
            1e-6 * ops / seconds
        } else {
            0.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_and_verification() {
        let a = Class::parse("a").unwrap();
        assert_eq!((a.nx, a.ny, a.nz, a.niter, a.sums.len()), (256, 256, 128, 6, 6));
        assert_eq!(Class::parse("B").unwrap().sums.len(), 20);
        assert!(Class::parse("Q").is_err());
        let s = Class::parse("S").unwrap();
        let exact: Vec<Complex64> = s.sums.iter().map(|&(r, i)| Complex64::new(r, i)).collect();
        assert!(s.verify(&exact));
        let mut off = exact.clone();
        off[3].im *= 1.0 + 1e-11;
        assert!(!s.verify(&off), "an error of 1e-11 fails");
        off[3].im = f64::NAN;
        assert!(!s.verify(&off), "a NaN fails");
        assert!(!s.verify(&exact[..5]), "a missing step fails");
    }

    #[test]
    fn mops_follow_npbs_formula() {
        // NPB FT class A: 7.1e9 operations (14.8157 + 7.19641 ln N + 6 (5.23518 + 7.21113 ln N)).
        let a = Class::parse("A").unwrap();
        let ops = a.mops(1.0) * 1e6;
        assert!((ops / 7.1e9 - 1.0).abs() < 0.01, "{ops}");
        assert_eq!(a.mops(0.0), 0.0);
    }
}
