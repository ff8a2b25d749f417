//! A file read with positional reads (`pread`), so that threads decode row groups of one file
//! at once (the `parquet` crate's `File` reader shares one file position between clones).

use bytes::Bytes;
use parquet::errors::Result as PqResult;
use parquet::file::reader::{ChunkReader, Length};
use std::fs::File;
use std::io::{BufReader, Read};

/// The buffer of sequential reads (page headers, footers).
const READ_BUF: usize = 8 << 10;
use std::os::unix::fs::FileExt;
use std::sync::Arc;

/// A shared file read by position.
#[derive(Clone)]
pub(crate) struct PosFile {
    file: Arc<File>,
    len: u64,
}

impl PosFile {
    pub(crate) fn new(file: File) -> std::io::Result<PosFile> {
        let len = file.metadata()?.len();
        Ok(PosFile { file: Arc::new(file), len })
    }
}

impl Length for PosFile {
    fn len(&self) -> u64 {
        self.len
    }
}

/// A reader from a position on.
pub(crate) struct PosRead {
    file: Arc<File>,
    pos: u64,
}

impl Read for PosRead {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.file.read_at(buf, self.pos)?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl ChunkReader for PosFile {
    type T = BufReader<PosRead>;

    /// Buffered: page headers are decoded a few bytes at a time.
    fn get_read(&self, start: u64) -> PqResult<BufReader<PosRead>> {
        Ok(BufReader::with_capacity(READ_BUF, PosRead { file: self.file.clone(), pos: start }))
    }

    fn get_bytes(&self, start: u64, length: usize) -> PqResult<Bytes> {
        let end = start.checked_add(length as u64).filter(|&e| e <= self.len);
        if end.is_none() {
            return Err(parquet::errors::ParquetError::EOF(format!(
                "a read of {length} bytes at offset {start} passes the end of the file ({} bytes)",
                self.len
            )));
        }
        let mut buf = vec![0u8; length];
        self.file.read_exact_at(&mut buf, start)?;
        Ok(Bytes::from(buf))
    }
}
